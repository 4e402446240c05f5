import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { getQueryFn, isUnauthorizedError } from './api-client';
import { USER_QUERY_KEY } from './session';

/** What a query or mutation tells the user when the server answers 401; each page's words come from the spec. */
export interface UnauthorizedNotice {
  title: string;
  description: string;
}

/** The `meta` of the app's queries and mutations (a type alias: TanStack wants a Record here). */
export type RequestMeta = {
  /** Toasted on a 401. Without it the user is told by the login screen alone. */
  unauthorized?: UnauthorizedNotice;
};

declare module '@tanstack/react-query' {
  interface Register {
    queryMeta: RequestMeta;
    mutationMeta: RequestMeta;
  }
}

/** Part 2, section 8, "Unauthorized on domain actions": the words of the domain page and its DMARC panels. */
export const LOGGED_OUT_NOTICE: UnauthorizedNotice = { title: 'Unauthorized', description: 'You are logged out. Logging in again...' };

/**
 * A 401 from any query or mutation, handled here once for the whole app: the request's notice is
 * toasted, and the session is asked for again. With the session gone, the login screen takes the
 * page's place (AuthGate); the spec redirects to /api/login, this app gates the page itself.
 */
function onUnauthorized(queryClient: QueryClient, tellUser: TellUser, error: unknown, meta: RequestMeta | undefined): void {
  if (!isUnauthorizedError(error)) return;
  if (meta?.unauthorized) tellUser(meta.unauthorized);
  // A check already under way is not started over, so a burst of 401s asks once.
  void queryClient.invalidateQueries({ queryKey: USER_QUERY_KEY }, { cancelRefetch: false });
}

/**
 * For a mutation's own onError: a 401 has been dealt with above (and told, when the mutation has a
 * notice), so the handler hears only the other failures.
 */
export function unlessUnauthorized(handler: (error: Error) => void): (error: Error) => void {
  return (error) => {
    if (!isUnauthorizedError(error)) handler(error);
  };
}

/** How a notice reaches the user: the app's toaster (web/app/query-client.ts); lib draws nothing itself. */
export type TellUser = (notice: UnauthorizedNotice) => void;

/** Part 1, section 7: fresh for 30 s, no refetch on focus, no polling, no retries. */
export function createQueryClient(tellUser: TellUser): QueryClient {
  const queryClient: QueryClient = new QueryClient({
    queryCache: new QueryCache({
      onError: (error, query) => {
        // The session query answers null for a 401; its other failures mean "signed out" already.
        if (query.queryKey[0] === USER_QUERY_KEY[0]) return;
        onUnauthorized(queryClient, tellUser, error, query.meta);
      },
    }),
    mutationCache: new MutationCache({
      onError: (error, _variables, _context, mutation) => onUnauthorized(queryClient, tellUser, error, mutation.meta),
    }),
    defaultOptions: {
      queries: {
        queryFn: getQueryFn({ on401: 'throw' }),
        staleTime: 30_000,
        refetchOnWindowFocus: false,
        refetchInterval: false,
        retry: false,
      },
      mutations: { retry: false },
    },
  });
  return queryClient;
}
