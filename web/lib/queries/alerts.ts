import { queryOptions, useQuery } from '@tanstack/react-query';
import { AlertList, type Alert } from '@contracts/alerts';
import { getQueryFn } from '../api-client';
import { useAuth } from '../session';

// The alert list feeds the navigation's unread badge and the dashboard's recent alerts: one cache.

export const ALERTS_QUERY_KEY = ['/api/alerts'] as const;
/** Part 1, section 9: the alert list (and so the unread badge) refreshes every 30 s. */
export const ALERTS_REFETCH_MS = 30_000;

const fetchAlerts = getQueryFn<unknown>({ on401: 'throw' });

export function alertsQueryOptions(enabled: boolean) {
  return queryOptions({
    queryKey: ALERTS_QUERY_KEY,
    queryFn: async (context): Promise<Alert[]> => AlertList.parse(await fetchAlerts(context)),
    refetchInterval: ALERTS_REFETCH_MS,
    refetchOnWindowFocus: true,
    // Only a signed-in user has alerts; asking otherwise would just collect 401s.
    enabled,
  });
}

export function useAlerts() {
  const { isAuthenticated } = useAuth();
  return useQuery(alertsQueryOptions(isAuthenticated));
}

/** Drives the red badge next to Alerts in the navigation. */
export function useUnreadAlertCount(): number {
  const { data } = useAlerts();
  return data?.filter((alert) => !alert.isRead).length ?? 0;
}
