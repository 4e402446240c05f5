import { act, renderHook } from '@testing-library/react';
import { QueryClientProvider, QueryObserver, type QueryClient } from '@tanstack/react-query';
import { createElement, type ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { toast, useToast } from '../components/ui/use-toast';
import { ApiError } from '../lib/api-client';
import { useApiMutation, type RequestMeta } from '../lib/query-client';
import { USER_QUERY_KEY } from '../lib/session';
import { createAppQueryClient } from './query-client';

const unauthorized = () =>
  new ApiError(401, 'Unauthorized', '{"code":"unauthorized","message":"Please sign in to continue"}');
const notice = { title: 'Session Expired', description: 'Please log in again to continue.' };

function toastTitles(): string[] {
  const { result } = renderHook(() => useToast());
  return result.current.toasts.map((toast) => String(toast.title));
}

/** A client whose session query is observed, as RootLayout does, and counts its fetches. */
function clientWithSession() {
  const queryClient = createAppQueryClient();
  const sessionFetch = vi.fn(() => new Promise<null>((resolve) => setTimeout(() => resolve(null), 10)));
  queryClient.setQueryData(USER_QUERY_KEY, { id: 1 });
  const observer = new QueryObserver(queryClient, {
    queryKey: USER_QUERY_KEY,
    queryFn: sessionFetch,
    staleTime: Infinity,
  });
  const unsubscribe = observer.subscribe(() => {});
  return { queryClient, sessionFetch, unsubscribe };
}

/** A mounted useApiMutation whose call fails with `failure`; its options' own onError is a spy. */
function renderMutation(queryClient: QueryClient, failure: Error, meta: RequestMeta | undefined) {
  const optionsOnError = vi.fn();
  const wrapper = ({ children }: { children: ReactNode }) =>
    createElement(QueryClientProvider, { client: queryClient }, children);
  const { result } = renderHook(
    () => useApiMutation({ mutationFn: () => Promise.reject(failure), meta, onError: optionsOnError }),
    { wrapper },
  );
  type CallOptions = NonNullable<Parameters<typeof result.current.mutate>[1]>;
  return { optionsOnError, mutate: (callOptions: CallOptions) => result.current.mutate(undefined, callOptions) };
}

describe('the query client on a 401', () => {
  it('toasts the query’s notice and asks for the session once, however many requests failed', async () => {
    const { queryClient, sessionFetch, unsubscribe } = clientWithSession();
    const failing = (key: string) =>
      queryClient
        .fetchQuery({ queryKey: [key], queryFn: () => Promise.reject(unauthorized()), meta: { unauthorized: notice } })
        .catch(() => {});
    await Promise.all([failing('/api/dashboard/overview'), failing('/api/domains')]);
    expect(toastTitles()).toEqual(['Session Expired']);
    await vi.waitFor(() => expect(sessionFetch).toHaveBeenCalledTimes(1));
    unsubscribe();
  });

  it('tells a mutation’s 401 once and asks for the session; the mutation’s own handlers never hear it', async () => {
    const { queryClient, sessionFetch, unsubscribe } = clientWithSession();
    const mutation = renderMutation(queryClient, unauthorized(), { unauthorized: notice });
    // What a component does on a failure: its own toast.
    const ownToast = vi.fn(() => toast({ title: 'Delete Failed', variant: 'destructive' }));
    const settled = vi.fn();
    act(() => mutation.mutate({ onError: ownToast, onSettled: settled }));
    await vi.waitFor(() => expect(settled).toHaveBeenCalledTimes(1));
    await vi.waitFor(() => expect(sessionFetch).toHaveBeenCalledTimes(1));
    expect(toastTitles()).toEqual(['Session Expired']);
    expect(ownToast).not.toHaveBeenCalled();
    expect(mutation.optionsOnError).not.toHaveBeenCalled();
    unsubscribe();
  });

  it('leaves a 401 without a notice to the mutation (a wrong password on sign-in), and still asks for the session', async () => {
    const { queryClient, sessionFetch, unsubscribe } = clientWithSession();
    const failure = unauthorized();
    const mutation = renderMutation(queryClient, failure, undefined);
    const ownHandler = vi.fn();
    act(() => mutation.mutate({ onError: ownHandler }));
    await vi.waitFor(() => expect(ownHandler).toHaveBeenCalledWith(failure, undefined, undefined, expect.anything()));
    expect(mutation.optionsOnError).toHaveBeenCalledTimes(1);
    await vi.waitFor(() => expect(sessionFetch).toHaveBeenCalledTimes(1));
    expect(toastTitles()).toEqual([]);
    unsubscribe();
  });

  it('leaves every other failure to the page', async () => {
    const { queryClient, sessionFetch, unsubscribe } = clientWithSession();
    const failure = new ApiError(500, 'Internal Server Error', '');
    await queryClient
      .fetchQuery({ queryKey: ['/api/alerts'], queryFn: () => Promise.reject(failure), meta: { unauthorized: notice } })
      .catch(() => {});
    const mutation = renderMutation(queryClient, failure, { unauthorized: notice });
    const ownHandler = vi.fn();
    act(() => mutation.mutate({ onError: ownHandler }));
    await vi.waitFor(() => expect(ownHandler).toHaveBeenCalledWith(failure, undefined, undefined, expect.anything()));
    expect(mutation.optionsOnError).toHaveBeenCalledTimes(1);
    expect(toastTitles()).toEqual([]);
    expect(sessionFetch).not.toHaveBeenCalled();
    unsubscribe();
  });
});
