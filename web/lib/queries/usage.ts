import { useQuery } from '@tanstack/react-query';
import { UsageResponse } from '@contracts/plans';
import { apiJson } from '../api-client';
import { LOGGED_OUT_NOTICE } from '../query-client';
import { useAuth } from '../session';

// The plan's limits against this month's use are shown by the subscription page, Inbox Placement
// (inbox tests used) and Integrations (what the e-mail allowance refused): one key, one cache.

export const USAGE_QUERY_KEY = ['/api/usage'] as const;

/** GET /api/usage: the plan's limits (null = unlimited) against this month's counts, as the server enforces them. */
export function useUsage() {
  const { isAuthenticated } = useAuth();
  return useQuery({
    queryKey: USAGE_QUERY_KEY,
    queryFn: async (): Promise<UsageResponse> => UsageResponse.parse(await apiJson('GET', USAGE_QUERY_KEY[0])),
    enabled: isAuthenticated,
    meta: { unauthorized: LOGGED_OUT_NOTICE },
  });
}
