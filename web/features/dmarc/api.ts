import { keepPreviousData, queryOptions, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import {
  ANALYTICS_PERIODS,
  DmarcAnalytics,
  DmarcReportDetail,
  DmarcReportDomainList,
  DmarcReportList,
  REPORT_SENDERS,
  UploadResponse,
  type DmarcReportStatus,
} from '@contracts/dmarc';
import { Domain as DomainSchema, type Domain } from '@contracts/domains';
import { apiJson, apiRequest, apiUpload } from '../../lib/api-client';
import { DOMAINS_QUERY_KEY, domainsQueryOptions } from '../../lib/queries/domains';
import { LOGGED_OUT_NOTICE, useApiMutation } from '../../lib/query-client';
import { useAuth } from '../../lib/session';

export type AnalyticsPeriod = (typeof ANALYTICS_PERIODS)[number];
export type ReportSender = (typeof REPORT_SENDERS)[number];

// Keys start with the endpoint's path so that one prefix reaches every domain, period and page.
export const DMARC_ANALYTICS_KEY = ['/api/dmarc/analytics'] as const;
export const DMARC_REPORTS_KEY = ['/api/dmarc/reports'] as const;
export const DMARC_REPORT_DOMAINS_KEY = ['/api/dmarc/report-domains'] as const;

/** Reports listed per page in the panel. */
export const REPORTS_PAGE_SIZE = 10;

function withQuery(path: string, params: Record<string, string | number | undefined>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value !== undefined) search.set(name, String(value));
  const text = search.toString();
  return text ? `${path}?${text}` : path;
}

export function analyticsQueryOptions(domain: string, days: AnalyticsPeriod) {
  return queryOptions({
    queryKey: [...DMARC_ANALYTICS_KEY, domain, days] as const,
    // The default fetcher GETs queryKey[0] only, so domain and period are put into the URL here.
    queryFn: async () =>
      DmarcAnalytics.parse(await apiJson('GET', withQuery('/api/dmarc/analytics', { domain, days }))),
    // The panel sits in a domain's card: a 401 is told in the domain page's words.
    meta: { unauthorized: LOGGED_OUT_NOTICE },
  });
}

export function useDmarcAnalytics(domain: string, days: AnalyticsPeriod) {
  const { isAuthenticated } = useAuth();
  // The previous period stays on screen while the next one loads, instead of a skeleton flash.
  return useQuery({
    ...analyticsQueryOptions(domain, days),
    enabled: isAuthenticated,
    placeholderData: keepPreviousData,
  });
}

/**
 * Either one domain's reports (all, or only those whose mail did or did not prove its sender), or failed
 * imports (which have no domain: the file could not be read).
 */
export type ReportsFilter =
  | { domain: string; sender?: ReportSender; status?: undefined }
  | { domain?: undefined; sender?: undefined; status: DmarcReportStatus };

export function reportsQueryOptions(filter: ReportsFilter, page: number) {
  return queryOptions({
    queryKey: [...DMARC_REPORTS_KEY, { ...filter, page }] as const,
    queryFn: async () =>
      DmarcReportList.parse(
        await apiJson('GET', withQuery('/api/dmarc/reports', { ...filter, page, pageSize: REPORTS_PAGE_SIZE })),
      ),
  });
}

export function useDmarcReports(filter: ReportsFilter, page: number) {
  const { isAuthenticated } = useAuth();
  return useQuery({
    ...reportsQueryOptions(filter, page),
    enabled: isAuthenticated,
    placeholderData: keepPreviousData,
  });
}

export function reportDetailQueryKey(id: number) {
  return [...DMARC_REPORTS_KEY, id] as const;
}

export function reportDetailQueryOptions(id: number) {
  return queryOptions({
    queryKey: reportDetailQueryKey(id),
    queryFn: async () => DmarcReportDetail.parse(await apiJson('GET', `/api/dmarc/reports/${id}`)),
  });
}

export function useDmarcReportDetail(id: number) {
  return useQuery(reportDetailQueryOptions(id));
}

/** Every domain the user's imported reports are about, theirs or not (the account-level imports view). */
export function reportDomainsQueryOptions() {
  return queryOptions({
    queryKey: DMARC_REPORT_DOMAINS_KEY,
    queryFn: async () => DmarcReportDomainList.parse(await apiJson('GET', '/api/dmarc/report-domains')),
  });
}

export function useDmarcReportDomains() {
  const { isAuthenticated } = useAuth();
  return useQuery({ ...reportDomainsQueryOptions(), enabled: isAuthenticated });
}

/** A file can hold reports of several domains, so every domain's analytics and lists are refreshed. */
function refreshAll(queryClient: QueryClient) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: DMARC_ANALYTICS_KEY }),
    queryClient.invalidateQueries({ queryKey: DMARC_REPORTS_KEY }),
    queryClient.invalidateQueries({ queryKey: DMARC_REPORT_DOMAINS_KEY }),
  ]);
}

/**
 * The user's domains (the shared list), to tell their reports from others'. DMARC shows on Domain
 * Management, so a 401 is told in that page's words: the same meta as its own list, one query.
 */
export function useYourDomains() {
  const { isAuthenticated } = useAuth();
  return useQuery({ ...domainsQueryOptions(isAuthenticated), meta: { unauthorized: LOGGED_OUT_NOTICE } });
}

/**
 * Adds a domain whose reports arrived through POST /api/domains, the same call as Domain
 * Management's Add Domain: its card (and with it its DMARC reports) then shows in the list.
 */
export function useAddReportDomainMutation() {
  const queryClient = useQueryClient();
  return useApiMutation({
    mutationFn: async (domain: string): Promise<Domain> =>
      DomainSchema.parse(await apiJson('POST', '/api/domains', { domain })),
    meta: { unauthorized: LOGGED_OUT_NOTICE },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: DOMAINS_QUERY_KEY, exact: true }),
  });
}

/** POST /api/dmarc/upload with the file as the raw body; its name goes in the query. */
export function useUploadDmarcReportMutation() {
  const queryClient = useQueryClient();
  return useApiMutation({
    mutationFn: async (file: File) =>
      UploadResponse.parse(await apiUpload(withQuery('/api/dmarc/upload', { filename: file.name || undefined }), file)),
    meta: { unauthorized: LOGGED_OUT_NOTICE },
    onSuccess: () => refreshAll(queryClient),
  });
}

/** DELETE /api/dmarc/reports/:id; answers 204 without a body. */
export function useDeleteDmarcReportMutation() {
  const queryClient = useQueryClient();
  return useApiMutation({
    mutationFn: async (id: number): Promise<void> => {
      await apiRequest('DELETE', `/api/dmarc/reports/${id}`);
    },
    meta: { unauthorized: LOGGED_OUT_NOTICE },
    onSuccess: (_answer, id) => {
      queryClient.removeQueries({ queryKey: reportDetailQueryKey(id), exact: true });
      return refreshAll(queryClient);
    },
  });
}
