import { queryOptions, useQuery } from '@tanstack/react-query';
import { DomainList, type Domain } from '@contracts/domains';
import { getQueryFn } from '../api-client';
import { useAuth } from '../session';

// The domain list is shown by Domain Management, the dashboard and Create Test: one definition, one cache.

export const DOMAINS_QUERY_KEY = ['/api/domains'] as const;

const fetchDomains = getQueryFn<unknown>({ on401: 'throw' });

export function domainsQueryOptions(enabled = true) {
  return queryOptions({
    queryKey: DOMAINS_QUERY_KEY,
    queryFn: async (context): Promise<Domain[]> => DomainList.parse(await fetchDomains(context)),
    enabled,
  });
}

/** The signed-in user's domains; asked for only once someone is signed in (part 1, section 6). */
export function useDomains() {
  const { isAuthenticated } = useAuth();
  return useQuery(domainsQueryOptions(isAuthenticated));
}
