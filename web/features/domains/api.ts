import { queryOptions, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import {
  Domain as DomainSchema,
  DomainDetail as DomainDetailSchema,
  type Domain,
  type DomainDetail,
} from '@contracts/domains';
import { apiJson, apiRequest } from '../../lib/api-client';
import { DOMAINS_QUERY_KEY, domainsQueryOptions } from '../../lib/queries/domains';
import { LOGGED_OUT_NOTICE, useApiMutation } from '../../lib/query-client';
import { useAuth } from '../../lib/session';

/** Key of one domain's detail. It starts with the list's key, so invalidating the list prefix reaches it too. */
export function domainDetailQueryKey(id: number) {
  return ['/api/domains', id] as const;
}

/** The domain list (web/lib/queries) as Domain Management shows it: a 401 is told in this page's words. */
export function useDomainList() {
  const { isAuthenticated } = useAuth();
  return useQuery({ ...domainsQueryOptions(isAuthenticated), meta: { unauthorized: LOGGED_OUT_NOTICE } });
}

/** GET /api/domains/:id: the domain with the results of its last DNS check (null until checked). */
export function domainDetailQueryOptions(id: number) {
  return queryOptions({
    queryKey: domainDetailQueryKey(id),
    // The default fetcher GETs queryKey[0] only, so the id is put into the path here.
    queryFn: async (): Promise<DomainDetail> => DomainDetailSchema.parse(await apiJson('GET', `/api/domains/${id}`)),
    meta: { unauthorized: LOGGED_OUT_NOTICE },
  });
}

export function useDomainDetail(id: number, enabled: boolean) {
  return useQuery({ ...domainDetailQueryOptions(id), enabled });
}

/** Only the list: the details that are open are refreshed by their own mutation's answer. */
function refreshList(queryClient: QueryClient) {
  return queryClient.invalidateQueries({ queryKey: DOMAINS_QUERY_KEY, exact: true });
}

/** POST /api/domains; the caller trims and lower-cases (part 2, section 5). */
export function useCreateDomainMutation() {
  const queryClient = useQueryClient();
  return useApiMutation({
    mutationFn: async (domain: string): Promise<Domain> =>
      DomainSchema.parse(await apiJson('POST', '/api/domains', { domain })),
    meta: { unauthorized: LOGGED_OUT_NOTICE },
    onSuccess: () => refreshList(queryClient),
  });
}

export interface UpdateDomainInput {
  id: number;
  dkimSelectors?: string[];
  notes?: string | null;
}

/** PATCH /api/domains/:id: the DKIM selectors to check and the notes. */
export function useUpdateDomainMutation() {
  const queryClient = useQueryClient();
  return useApiMutation({
    mutationFn: async ({ id, ...body }: UpdateDomainInput): Promise<Domain> =>
      DomainSchema.parse(await apiJson('PATCH', `/api/domains/${id}`, body)),
    meta: { unauthorized: LOGGED_OUT_NOTICE },
    onSuccess: (domain) => {
      // The stored check results still describe the old selectors until the next Verify DNS.
      queryClient.setQueryData<DomainDetail>(domainDetailQueryKey(domain.id), (old) =>
        old ? { ...old, ...domain } : old,
      );
      return refreshList(queryClient);
    },
  });
}

/** DELETE /api/domains/:id (204, no body). */
export function useDeleteDomainMutation() {
  const queryClient = useQueryClient();
  return useApiMutation({
    mutationFn: async (id: number): Promise<void> => {
      await apiRequest('DELETE', `/api/domains/${id}`);
    },
    meta: { unauthorized: LOGGED_OUT_NOTICE },
    onSuccess: (_answer, id) => {
      // Gone from the list at once; the refetch below confirms it.
      queryClient.setQueryData<Domain[]>(DOMAINS_QUERY_KEY, (old) => old?.filter((domain) => domain.id !== id));
      queryClient.removeQueries({ queryKey: domainDetailQueryKey(id), exact: true });
      return refreshList(queryClient);
    },
  });
}

/** POST /api/domains/:id/verify: runs the DNS checks now; the server recomputes the status (part 2, section 4). */
export function useVerifyDomainMutation() {
  const queryClient = useQueryClient();
  return useApiMutation({
    mutationFn: async (id: number): Promise<DomainDetail> =>
      DomainDetailSchema.parse(await apiJson('POST', `/api/domains/${id}/verify`)),
    meta: { unauthorized: LOGGED_OUT_NOTICE },
    onSuccess: (detail) => {
      queryClient.setQueryData(domainDetailQueryKey(detail.id), detail);
      return refreshList(queryClient);
    },
  });
}
