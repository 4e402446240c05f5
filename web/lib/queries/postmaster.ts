import { queryOptions, useQuery } from '@tanstack/react-query';
import { PostmasterConnectStart, PostmasterStats, PostmasterStatus } from '@contracts/postmaster';
import { apiJson, getQueryFn } from '../api-client';
import { useApiMutation } from '../query-client';
import { useAuth } from '../session';

// Google Postmaster Tools is shown by the dashboard and the reputation page: one definition, one cache.

export const POSTMASTER_STATUS_QUERY_KEY = ['/api/postmaster/status'] as const;
export const POSTMASTER_STATS_PATH = '/api/postmaster/stats';

const fetchJson = getQueryFn<unknown>({ on401: 'throw' });

export function postmasterStatusQueryOptions(enabled = true) {
  return queryOptions({
    queryKey: POSTMASTER_STATUS_QUERY_KEY,
    queryFn: async (context): Promise<PostmasterStatus> => PostmasterStatus.parse(await fetchJson(context)),
    enabled,
  });
}

/** Whether the user's Google account is connected (and whether this server can connect one at all). */
export function usePostmasterStatus() {
  const { isAuthenticated } = useAuth();
  return useQuery(postmasterStatusQueryOptions(isAuthenticated));
}

export function postmasterStatsQueryOptions(days: number, enabled = true) {
  return queryOptions({
    // The default fetcher GETs the first key element, so the period is part of that URL.
    queryKey: [`${POSTMASTER_STATS_PATH}?days=${days}`] as const,
    queryFn: async (context): Promise<PostmasterStats> => PostmasterStats.parse(await fetchJson(context)),
    enabled,
  });
}

/** Gmail's daily figures for every Postmaster Tools domain of the user, the last `days` days; asked for once connected. */
export function usePostmasterStats(days: number, enabled: boolean) {
  const { isAuthenticated } = useAuth();
  return useQuery(postmasterStatsQueryOptions(days, isAuthenticated && enabled));
}

/**
 * Starts the Google sign-in: the server answers Google's consent page for this session, and the
 * browser goes there; Google sends it back to /oauth/google/callback, which lands on the integrations page.
 */
export function useConnectGooglePostmaster() {
  return useApiMutation({
    mutationFn: async (): Promise<PostmasterConnectStart> =>
      PostmasterConnectStart.parse(await apiJson('POST', '/api/integrations/google-postmaster/connect')),
    onSuccess: ({ authorizationUrl }) => window.location.assign(authorizationUrl),
  });
}
