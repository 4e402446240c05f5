import { queryOptions, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { InboxTestList, type InboxTest } from '@contracts/inbox-tests';
import { apiRequest, getQueryFn } from '../api-client';
import { useApiMutation, type UnauthorizedNotice } from '../query-client';
import { useAuth } from '../session';
import { USAGE_QUERY_KEY } from './usage';

// The inbox test list is shown by Inbox Placement Testing and the dashboard: one definition, one cache,
// and one delete, which both offer.

export const INBOX_TESTS_QUERY_KEY = ['/api/inbox-tests'] as const;

const fetchInboxTests = getQueryFn<unknown>({ on401: 'throw' });

/** The user's inbox placement tests, newest first. */
export function inboxTestsQueryOptions(enabled = true) {
  return queryOptions({
    queryKey: INBOX_TESTS_QUERY_KEY,
    queryFn: async (context): Promise<InboxTest[]> => InboxTestList.parse(await fetchInboxTests(context)),
    enabled,
  });
}

export function useInboxTests() {
  const { isAuthenticated } = useAuth();
  return useQuery(inboxTestsQueryOptions(isAuthenticated));
}

/** The list and whatever the dashboard summarises from it, after a test was created or deleted. */
export function refreshInboxTestViews(queryClient: QueryClient) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: INBOX_TESTS_QUERY_KEY, exact: true }),
    // The dashboard's counters and inbox figures are built from the tests; its keys start with this path.
    queryClient.invalidateQueries({ predicate: (query) => String(query.queryKey[0]).startsWith('/api/dashboard') }),
    // A created test is counted against the month's inbox tests.
    queryClient.invalidateQueries({ queryKey: USAGE_QUERY_KEY, exact: true }),
  ]);
}

/** Part 2, section 8: what deleting a test says when the session is gone. */
const DELETE_UNAUTHORIZED: UnauthorizedNotice = {
  title: 'Authentication Required',
  description: 'Please log in to delete inbox tests',
};

/** DELETE /api/inbox-tests/:id (204, no body); the test goes from the list at once, with its results and report. */
export function useDeleteInboxTestMutation() {
  const queryClient = useQueryClient();
  return useApiMutation({
    mutationFn: async (id: number): Promise<void> => {
      await apiRequest('DELETE', `/api/inbox-tests/${id}`);
    },
    meta: { unauthorized: DELETE_UNAUTHORIZED },
    onSuccess: (_answer, id) => {
      queryClient.setQueryData<InboxTest[]>(INBOX_TESTS_QUERY_KEY, (old) => old?.filter((test) => test.id !== id));
      queryClient.removeQueries({ queryKey: ['/api/inbox-tests', id] });
      return refreshInboxTestViews(queryClient);
    },
  });
}
