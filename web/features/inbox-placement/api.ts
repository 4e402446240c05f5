import { queryOptions, useQuery, useQueryClient, type Query } from '@tanstack/react-query';
import {
  InboxTest as InboxTestSchema,
  InboxTestReport as InboxTestReportSchema,
  InboxTestResults,
  SeedNetworkStatus as SeedNetworkStatusSchema,
  type CreateInboxTestBody,
  type InboxTest,
  type InboxTestReport,
  type InboxTestResultRow,
  type SeedNetworkStatus,
} from '@contracts/inbox-tests';
import { ApiError, apiJson, getQueryFn } from '../../lib/api-client';
import { INBOX_TESTS_QUERY_KEY, inboxTestsQueryOptions, refreshInboxTestViews } from '../../lib/queries/inbox-tests';
import { useApiMutation, type UnauthorizedNotice } from '../../lib/query-client';
import { useAuth } from '../../lib/session';
import { isActiveTest } from './test-status';

export const SEED_NETWORK_STATUS_QUERY_KEY = ['/api/seed-network/status'] as const;

/** Part 2, section 7: the seed network status is polled every 30 seconds. */
export const SEED_NETWORK_POLL_MS = 30_000;
/** While a test waits for its e-mail or for the seed mailboxes, the list is asked again this often. */
export const ACTIVE_TESTS_POLL_MS = 5_000;

// Keys of one test's data start with the list's key, so removing a test's prefix reaches them all.
export function inboxTestResultsQueryKey(id: number) {
  return ['/api/inbox-tests', id, 'results'] as const;
}

export function inboxTestReportQueryKey(id: number) {
  return ['/api/inbox-tests', id, 'report'] as const;
}

const fetchJson = getQueryFn<unknown>({ on401: 'throw' });

/** Every 5 s while a test is awaiting its e-mail or running, so the user sees its status change; else never. */
export function activeTestsPollInterval(query: Pick<Query<InboxTest[]>, 'state'>): number | false {
  return query.state.data?.some(isActiveTest) ? ACTIVE_TESTS_POLL_MS : false;
}

/** The list as the Inbox Placement page shows it: polled while a test can still change by itself. */
export function useInboxTestList() {
  const { isAuthenticated } = useAuth();
  return useQuery({ ...inboxTestsQueryOptions(isAuthenticated), refetchInterval: activeTestsPollInterval });
}

export function seedNetworkStatusQueryOptions(enabled = true) {
  return queryOptions({
    queryKey: SEED_NETWORK_STATUS_QUERY_KEY,
    queryFn: async (context): Promise<SeedNetworkStatus> => SeedNetworkStatusSchema.parse(await fetchJson(context)),
    refetchInterval: SEED_NETWORK_POLL_MS,
    enabled,
  });
}

export function useSeedNetworkStatus() {
  const { isAuthenticated } = useAuth();
  return useQuery(seedNetworkStatusQueryOptions(isAuthenticated));
}

export function inboxTestResultsQueryOptions(id: number) {
  return queryOptions({
    queryKey: inboxTestResultsQueryKey(id),
    // The default fetcher GETs queryKey[0] only, so the id is put into the path here.
    queryFn: async (): Promise<InboxTestResultRow[]> =>
      InboxTestResults.parse(await apiJson('GET', `/api/inbox-tests/${id}/results`)),
  });
}

export function useInboxTestResults(id: number, enabled = true) {
  return useQuery({ ...inboxTestResultsQueryOptions(id), enabled });
}

/** GET /api/inbox-tests/:id/report; null while the message has not arrived (the server answers 404). */
export function inboxTestReportQueryOptions(id: number) {
  return queryOptions({
    queryKey: inboxTestReportQueryKey(id),
    queryFn: async (): Promise<InboxTestReport | null> => {
      try {
        return InboxTestReportSchema.parse(await apiJson('GET', `/api/inbox-tests/${id}/report`));
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) return null;
        throw error;
      }
    },
  });
}

/** The message analysis; asked again every 5 s while it does not exist yet and `waiting` says it will. */
export function useInboxTestReport(
  id: number,
  { enabled = true, waiting = false }: { enabled?: boolean; waiting?: boolean } = {},
) {
  return useQuery({
    ...inboxTestReportQueryOptions(id),
    enabled,
    refetchInterval: (query) => (waiting && query.state.data === null ? ACTIVE_TESTS_POLL_MS : false),
    // "Not arrived yet" is never kept: a test seen running, then completed, opens its results with the report.
    refetchOnMount: (query) => (query.state.data === null ? 'always' : true),
  });
}

/** Part 2, section 8: what creating a test says when the session is gone. */
const CREATE_UNAUTHORIZED: UnauthorizedNotice = {
  title: 'Authentication Required',
  description: 'Please log in to create inbox tests',
};

/** POST /api/inbox-tests {testType: 'automatic'}; the new test is put at the top of the list at once. */
export function useCreateInboxTestMutation() {
  const queryClient = useQueryClient();
  return useApiMutation({
    mutationFn: async (settings: Pick<CreateInboxTestBody, 'oneClickUnsubscribeTest'> = {}): Promise<InboxTest> =>
      InboxTestSchema.parse(await apiJson('POST', '/api/inbox-tests', { testType: 'automatic', ...settings })),
    meta: { unauthorized: CREATE_UNAUTHORIZED },
    onSuccess: (test) => {
      queryClient.setQueryData<InboxTest[]>(INBOX_TESTS_QUERY_KEY, (old) => [
        test,
        ...(old ?? []).filter((other) => other.id !== test.id),
      ]);
      return refreshInboxTestViews(queryClient);
    },
  });
}
