import { useCallback } from 'react';
import {
  MutationCache,
  QueryCache,
  QueryClient,
  useMutation,
  type DefaultError,
  type MutationFunctionContext,
  type UseMutationOptions,
  type UseMutationResult,
} from '@tanstack/react-query';
import { isUnauthorizedError } from './api-client';
import { USER_QUERY_KEY } from './session';

/** What a query or mutation tells the user when the server answers 401; each page's words come from the spec. */
export interface UnauthorizedNotice {
  title: string;
  description: string;
}

/** The `meta` of the app's queries and mutations (a type alias: TanStack wants a Record here). */
export type RequestMeta = {
  /**
   * Toasted on a 401 (once, by the client), which the request's own error handlers then never hear
   * (useApiMutation). Without it a 401 is left to them (a wrong password on sign-in) and to the login screen.
   */
  unauthorized?: UnauthorizedNotice;
};

declare module '@tanstack/react-query' {
  interface Register {
    queryMeta: RequestMeta;
    mutationMeta: RequestMeta;
  }
}

/** Part 2, section 8, "Unauthorized on domain actions": the words of the domain page and its DMARC panels. */
export const LOGGED_OUT_NOTICE: UnauthorizedNotice = {
  title: 'Unauthorized',
  description: 'You are logged out. Logging in again...',
};

/**
 * A 401 from any query or mutation, handled here once for the whole app: the request's notice is
 * toasted, and the session is asked for again. With the session gone, the login screen takes the
 * page's place (AuthGate); the spec redirects to /api/login, this app gates the page itself.
 */
function onUnauthorized(
  queryClient: QueryClient,
  tellUser: TellUser,
  error: unknown,
  meta: RequestMeta | undefined,
): void {
  if (!isUnauthorizedError(error)) return;
  const notice = noticeToldByClient(error, meta);
  if (notice) tellUser(notice);
  // A check already under way is not started over, so a burst of 401s asks once.
  void queryClient.invalidateQueries({ queryKey: USER_QUERY_KEY }, { cancelRefetch: false });
}

/**
 * The one check of what the client tells: the notice of a request that failed with a 401. Such a
 * failure is the client's alone; a mutation's own handlers never hear it (useApiMutation). A 401
 * without a notice stays theirs to tell: for signing in it means a wrong password, not a lost session.
 */
function noticeToldByClient(error: unknown, meta: RequestMeta | undefined): UnauthorizedNotice | undefined {
  return isUnauthorizedError(error) ? meta?.unauthorized : undefined;
}

type ErrorHandler<TError, TVariables, TOnMutateResult, TResult> = (
  error: TError,
  variables: TVariables,
  onMutateResult: TOnMutateResult | undefined,
  context: MutationFunctionContext,
) => TResult;

function unlessToldByClient<TError, TVariables, TOnMutateResult, TResult>(
  handler: ErrorHandler<TError, TVariables, TOnMutateResult, TResult> | undefined,
): ErrorHandler<TError, TVariables, TOnMutateResult, TResult | undefined> | undefined {
  if (!handler) return undefined;
  return (error, variables, onMutateResult, context) =>
    noticeToldByClient(error, context.meta) ? undefined : handler(error, variables, onMutateResult, context);
}

/**
 * useMutation for the app's API calls. A failure the client has told the user about (noticeToldByClient)
 * reaches neither the mutation's own onError nor the one a caller gives mutate(): those hear only
 * the failures that are theirs to tell. onSettled still runs. mutateAsync rejects as ever.
 */
export function useApiMutation<TData = unknown, TError = DefaultError, TVariables = void, TOnMutateResult = unknown>(
  options: UseMutationOptions<TData, TError, TVariables, TOnMutateResult>,
): UseMutationResult<TData, TError, TVariables, TOnMutateResult> {
  const mutation = useMutation({ ...options, onError: unlessToldByClient(options.onError) });
  const { mutate } = mutation;
  const mutateUnlessTold = useCallback(
    (...[variables, callOptions]: Parameters<typeof mutate>) => {
      const onError = unlessToldByClient(callOptions?.onError);
      // The same two arguments back (TanStack types them as a tuple that depends on TVariables).
      mutate(...([variables, callOptions && { ...callOptions, onError }] as Parameters<typeof mutate>));
    },
    [mutate],
  );
  return { ...mutation, mutate: mutateUnlessTold };
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
