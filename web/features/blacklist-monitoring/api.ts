import { useEffect, useRef } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Blocklist, IpMonitoringStatus, TriggerMonitoringResponse } from '@contracts/reputation';
import { apiJson } from '../../lib/api-client';
import { useApiMutation } from '../../lib/query-client';
import { DOMAIN_REPUTATION_QUERY_KEY, IP_ADDRESSES_QUERY_KEY } from '../../lib/queries/reputation';
import { useAuth } from '../../lib/session';

export { useDomainReputation } from '../../lib/queries/reputation';

export const MONITORING_STATUS_QUERY_KEY = ['/api/ip-monitoring/status'] as const;

/** While a run goes, the status is asked for this often, so the page sees it end. */
export const RUNNING_POLL_MS = 2_000;

/**
 * GET /api/ip-monitoring/status, polled every 2 s while a run is going. When a run ends the IPs and
 * domains are asked for again: their answers are what the run wrote.
 */
export function useMonitoringStatus() {
  const { isAuthenticated } = useAuth();
  const queryClient = useQueryClient();
  const status = useQuery({
    queryKey: MONITORING_STATUS_QUERY_KEY,
    queryFn: async () => IpMonitoringStatus.parse(await apiJson('GET', MONITORING_STATUS_QUERY_KEY[0])),
    enabled: isAuthenticated,
    refetchInterval: (query) => (query.state.data?.isRunning ? RUNNING_POLL_MS : false),
  });
  const running = status.data?.isRunning;
  const wasRunning = useRef(running);
  useEffect(() => {
    if (wasRunning.current && running === false) {
      void queryClient.invalidateQueries({ queryKey: IP_ADDRESSES_QUERY_KEY, exact: true });
      void queryClient.invalidateQueries({ queryKey: DOMAIN_REPUTATION_QUERY_KEY, exact: true });
    }
    wasRunning.current = running;
  }, [running, queryClient]);
  return status;
}

/** POST /api/ip-monitoring/trigger: a run already queued or going is not started twice (`started` false). */
export function useTriggerMonitoring() {
  const queryClient = useQueryClient();
  return useApiMutation({
    mutationFn: async () => TriggerMonitoringResponse.parse(await apiJson('POST', '/api/ip-monitoring/trigger')),
    onSuccess: ({ status }) => {
      queryClient.setQueryData(MONITORING_STATUS_QUERY_KEY, status);
      // A run that finished before it answered: its results are there already.
      if (!status.isRunning) {
        void queryClient.invalidateQueries({ queryKey: IP_ADDRESSES_QUERY_KEY, exact: true });
        void queryClient.invalidateQueries({ queryKey: DOMAIN_REPUTATION_QUERY_KEY, exact: true });
      }
    },
  });
}

/** PUT /api/blocklists/:id/ignore: an ignored list is still shown but counts for nothing, so the counts are asked for again. */
export function useIgnoreBlocklist() {
  const queryClient = useQueryClient();
  return useApiMutation({
    mutationFn: async ({ listId, ignored }: { listId: string; ignored: boolean }) =>
      Blocklist.parse(await apiJson('PUT', `/api/blocklists/${encodeURIComponent(listId)}/ignore`, { ignored })),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: IP_ADDRESSES_QUERY_KEY, exact: true }),
        queryClient.invalidateQueries({ queryKey: DOMAIN_REPUTATION_QUERY_KEY, exact: true }),
      ]),
  });
}
