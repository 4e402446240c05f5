import { queryOptions, useQuery } from '@tanstack/react-query';
import { InboxTestList, type InboxTest } from '@contracts/inbox-tests';
import { getQueryFn } from '../api-client';
import { useAuth } from '../session';

// The inbox test list is shown by Inbox Placement Testing and the dashboard: one definition, one cache.

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
