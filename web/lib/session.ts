import { queryOptions, useQuery } from '@tanstack/react-query';
import type { User } from '@contracts/user';
import { getQueryFn } from './api-client';

// The session: who is signed in. Every page needs it (the landing page too) and every feature's
// queries wait for it, so it lives here rather than in the auth feature; it stays light because
// the first chunk loads it (the auth forms and their schemas are in the lazy account pages).

export const USER_QUERY_KEY = ['/api/user'] as const;

/**
 * The session probe: GET /api/user answers 401 when nobody is signed in, and the browser logs every
 * 4xx in the console; with whenSignedOut=null it answers 200 and null instead (contracts/user.ts,
 * UserQuery), so a visitor's page load shows no failed request. A 401 still means signed out.
 */
export const SESSION_PROBE_URL = '/api/user?whenSignedOut=null';

const probe = getQueryFn<unknown>({ on401: 'returnNull' });

/** Part 1, section 7: no retry, fresh 5 s, kept 10 s, refetched on focus and mount; null = signed out. */
export const userQueryOptions = queryOptions({
  queryKey: USER_QUERY_KEY,
  queryFn: async (context): Promise<User | null> => {
    const data = await probe({ ...context, queryKey: [SESSION_PROBE_URL] });
    if (data === null) return null;
    // The schema (and zod with it) is fetched only when there is a user to check, so a signed-out
    // visitor of the landing page never downloads the validation library.
    const { User } = await import('@contracts/user');
    return User.parse(data);
  },
  staleTime: 5_000,
  gcTime: 10_000,
  refetchOnWindowFocus: true,
  refetchOnMount: true,
  refetchInterval: false,
  retry: false,
});

export interface AuthState {
  user: User | null;
  isLoading: boolean;
  isAuthenticated: boolean;
}

/** Part 1, section 4: signed in only when there is user data and no error; a failed query = signed out. */
export function useAuth(): AuthState {
  const { data, error, isLoading, isFetched } = useQuery(userQueryOptions);
  const user = data && !error ? data : null;
  // Loading means "no answer yet, ever". A failed query with no data goes back to pending when it
  // is refetched (e.g. on mount); treating that as loading would swap the page for the spinner,
  // remount it, refetch again, and loop.
  return { user, isLoading: isLoading && !isFetched, isAuthenticated: user !== null };
}
