import { keepPreviousData, queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { DomainTimeline, IpTimeline, TimelineNote, type CreateNoteRequest } from '@contracts/timeline';
import { apiJson, apiRequest } from '../../lib/api-client';
import { diagnosisQueryKey, diagnosisQueryOptions } from '../../lib/queries/diagnosis';
import { LOGGED_OUT_NOTICE, useApiMutation } from '../../lib/query-client';
import { useAuth } from '../../lib/session';

/** The periods the page offers; the API takes any number of days from 1 to 365. */
export const TIMELINE_PERIODS = [7, 30, 90] as const;
export type TimelinePeriod = (typeof TIMELINE_PERIODS)[number];

/** Starts with the domain's key (as its detail and diagnosis do), so one prefix reaches every period. */
export function timelineQueryKey(domainId: number, days?: number) {
  return days === undefined
    ? (['/api/domains', domainId, 'timeline'] as const)
    : (['/api/domains', domainId, 'timeline', days] as const);
}

export function timelineQueryOptions(domainId: number, days: number) {
  return queryOptions({
    queryKey: timelineQueryKey(domainId, days),
    queryFn: async (): Promise<DomainTimeline> =>
      DomainTimeline.parse(await apiJson('GET', `/api/domains/${domainId}/timeline?days=${days}`)),
    meta: { unauthorized: LOGGED_OUT_NOTICE },
  });
}

/** GET /api/domains/:id/timeline?days=: the series and events of one domain. */
export function useTimeline(domainId: number, days: number) {
  const { isAuthenticated } = useAuth();
  // Another period keeps the one shown until it arrives, instead of a spinner in the chart's place.
  return useQuery({
    ...timelineQueryOptions(domainId, days),
    enabled: isAuthenticated,
    placeholderData: keepPreviousData,
  });
}

/** GET /api/ip-addresses/:id/timeline?days=: one sending IP's rates and listings. */
export function useIpTimeline(ipId: number, days: number) {
  const { isAuthenticated } = useAuth();
  return useQuery({
    queryKey: ['/api/ip-addresses', ipId, 'timeline', days] as const,
    queryFn: async (): Promise<IpTimeline> =>
      IpTimeline.parse(await apiJson('GET', `/api/ip-addresses/${ipId}/timeline?days=${days}`)),
    meta: { unauthorized: LOGGED_OUT_NOTICE },
    enabled: isAuthenticated,
    placeholderData: keepPreviousData,
  });
}

/** GET /api/domains/:id/diagnosis?days=: the drops found in the same period, newest first. */
export function useDiagnosis(domainId: number, days: number) {
  const { isAuthenticated } = useAuth();
  return useQuery({
    ...diagnosisQueryOptions(domainId, days, isAuthenticated),
    meta: { unauthorized: LOGGED_OUT_NOTICE },
    placeholderData: keepPreviousData,
  });
}

/** A note is evidence: the timeline shows it and a diagnosis may name it as a cause. */
function refreshDomainEvidence(queryClient: ReturnType<typeof useQueryClient>, domainId: number) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: timelineQueryKey(domainId) }),
    queryClient.invalidateQueries({ queryKey: diagnosisQueryKey(domainId) }),
  ]);
}

/** POST /api/domains/:id/notes {text, at?} (201, the note). */
export function useCreateNoteMutation(domainId: number) {
  const queryClient = useQueryClient();
  return useApiMutation({
    mutationFn: async (body: CreateNoteRequest): Promise<TimelineNote> =>
      TimelineNote.parse(await apiJson('POST', `/api/domains/${domainId}/notes`, body)),
    meta: { unauthorized: LOGGED_OUT_NOTICE },
    onSuccess: () => refreshDomainEvidence(queryClient, domainId),
  });
}

/** DELETE /api/domains/:id/notes/:noteId (204, no body). */
export function useDeleteNoteMutation(domainId: number) {
  const queryClient = useQueryClient();
  return useApiMutation({
    mutationFn: async (noteId: number): Promise<void> => {
      await apiRequest('DELETE', `/api/domains/${domainId}/notes/${noteId}`);
    },
    meta: { unauthorized: LOGGED_OUT_NOTICE },
    onSuccess: () => refreshDomainEvidence(queryClient, domainId),
  });
}
