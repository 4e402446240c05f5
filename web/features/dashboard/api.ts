import { queryOptions, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { ComplianceOverview } from '@contracts/compliance';
import { DashboardOverview, DashboardTrends } from '@contracts/dashboard';
import type { Domain } from '@contracts/domains';
import { EmailMetricList, type EmailMetric } from '@contracts/email-metrics';
import { IntegrationList, type Integration } from '@contracts/integrations';
import type { Drop } from '@contracts/timeline';
import { apiRequest, getQueryFn } from '../../lib/api-client';
import { ALERTS_QUERY_KEY } from '../../lib/queries/alerts';
import { diagnosisQueryOptions } from '../../lib/queries/diagnosis';
import { useApiMutation, type UnauthorizedNotice } from '../../lib/query-client';
import { useAuth } from '../../lib/session';

export const OVERVIEW_QUERY_KEY = ['/api/dashboard/overview'] as const;
export const EMAIL_METRICS_QUERY_KEY = ['/api/email-metrics'] as const;
export const INTEGRATIONS_QUERY_KEY = ['/api/integrations'] as const;
export const TRENDS_PATH = '/api/dashboard/trends';

export type TrendPeriod = 7 | 30 | 90;

const fetchJson = getQueryFn<unknown>({ on401: 'throw' });

/** Part 1, section 8: the overview answering 401 means the session ran out under the dashboard. */
const SESSION_EXPIRED: UnauthorizedNotice = {
  title: 'Session Expired',
  description: 'Please log in again to continue.',
};

export function overviewQueryOptions(enabled = true) {
  return queryOptions({
    queryKey: OVERVIEW_QUERY_KEY,
    queryFn: async (context): Promise<DashboardOverview> => DashboardOverview.parse(await fetchJson(context)),
    meta: { unauthorized: SESSION_EXPIRED },
    enabled,
  });
}

/** Part 1, section 6: dashboard data is asked for only once someone is signed in. */
export function useDashboardOverview() {
  const { isAuthenticated } = useAuth();
  return useQuery(overviewQueryOptions(isAuthenticated));
}

export function emailMetricsQueryOptions(enabled = true) {
  return queryOptions({
    queryKey: EMAIL_METRICS_QUERY_KEY,
    queryFn: async (context): Promise<EmailMetric[]> => EmailMetricList.parse(await fetchJson(context)),
    enabled,
  });
}

export function useEmailMetrics(enabled = true) {
  const { isAuthenticated } = useAuth();
  return useQuery(emailMetricsQueryOptions(isAuthenticated && enabled));
}

/** Installed integrations with their last 30 days of synced figures. */
export function integrationsQueryOptions(enabled = true) {
  return queryOptions({
    queryKey: INTEGRATIONS_QUERY_KEY,
    queryFn: async (context): Promise<Integration[]> => IntegrationList.parse(await fetchJson(context)),
    enabled,
  });
}

export function useIntegrations() {
  const { isAuthenticated } = useAuth();
  return useQuery(integrationsQueryOptions(isAuthenticated));
}

export function trendsQueryOptions(days: TrendPeriod, enabled = true) {
  return queryOptions({
    // The default fetcher GETs the first key element, so the period is part of that URL.
    queryKey: [`${TRENDS_PATH}?days=${days}`] as const,
    queryFn: async (context): Promise<DashboardTrends> => DashboardTrends.parse(await fetchJson(context)),
    enabled,
  });
}

/** Advanced analytics trends; only plans with advanced_analytics may ask (others get 403). */
export function useDashboardTrends(days: TrendPeriod, enabled: boolean) {
  const { isAuthenticated } = useAuth();
  return useQuery(trendsQueryOptions(days, isAuthenticated && enabled));
}

/** DELETE /api/alerts/:id (204, no body); the alert list (and so the unread badge) is refreshed afterwards. */
export function useDeleteAlertMutation() {
  const queryClient = useQueryClient();
  return useApiMutation({
    mutationFn: async (id: number): Promise<void> => {
      await apiRequest('DELETE', `/api/alerts/${id}`);
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ALERTS_QUERY_KEY }),
  });
}

/** Issue 19: the dashboard answers "why did my mail go to spam?" for drops of the last 7 days. */
export const RECENT_DROP_DAYS = 7;

export interface DropAnswer {
  domain: Pick<Domain, 'id' | 'domain'>;
  drop: Drop;
}

/**
 * For each domain, its newest drop detected in the last 7 days (GET /api/domains/:id/diagnosis?days=7,
 * one call per domain: the API has no summary across domains). Domains without one, and diagnoses
 * that failed or have not answered yet, give nothing: the dashboard never shows a guess.
 */
export function useRecentDrops(domains: readonly Domain[]): DropAnswer[] {
  const { isAuthenticated } = useAuth();
  return useQueries({
    queries: domains.map((domain) => diagnosisQueryOptions(domain.id, RECENT_DROP_DAYS, isAuthenticated)),
    combine: (results) => {
      const since = Date.now() - RECENT_DROP_DAYS * 24 * 60 * 60 * 1000;
      return results.flatMap((result, index): DropAnswer[] => {
        const recent = (result.data?.drops ?? []).filter((drop) => Date.parse(drop.at) >= since);
        const newest = recent.reduce<Drop | undefined>(
          (best, drop) => (!best || Date.parse(drop.at) > Date.parse(best.at) ? drop : best),
          undefined,
        );
        return newest ? [{ domain: domains[index], drop: newest }] : [];
      });
    },
  });
}

export const COMPLIANCE_OVERVIEW_QUERY_KEY = ['/api/dashboard/compliance'] as const;

/** GET /api/dashboard/compliance: the bulk-sender rules each checked domain does not meet. */
export function useComplianceOverview() {
  const { isAuthenticated } = useAuth();
  return useQuery({
    queryKey: COMPLIANCE_OVERVIEW_QUERY_KEY,
    queryFn: async (context): Promise<ComplianceOverview> => ComplianceOverview.parse(await fetchJson(context)),
    enabled: isAuthenticated,
  });
}
