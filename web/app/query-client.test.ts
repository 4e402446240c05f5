import { renderHook } from '@testing-library/react';
import { QueryObserver } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { useToast } from '../components/ui/use-toast';
import { ApiError } from '../lib/api-client';
import { unlessUnauthorized } from '../lib/query-client';
import { USER_QUERY_KEY } from '../lib/session';
import { createAppQueryClient } from './query-client';

const unauthorized = () => new ApiError(401, 'Unauthorized', '{"code":"unauthorized","message":"Please sign in to continue"}');
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
  const observer = new QueryObserver(queryClient, { queryKey: USER_QUERY_KEY, queryFn: sessionFetch, staleTime: Infinity });
  const unsubscribe = observer.subscribe(() => {});
  return { queryClient, sessionFetch, unsubscribe };
}

describe('the query client on a 401', () => {
  it('toasts the query’s notice and asks for the session once, however many requests failed', async () => {
    const { queryClient, sessionFetch, unsubscribe } = clientWithSession();
    const failing = (key: string) =>
      queryClient.fetchQuery({ queryKey: [key], queryFn: () => Promise.reject(unauthorized()), meta: { unauthorized: notice } }).catch(() => {});
    await Promise.all([failing('/api/dashboard/overview'), failing('/api/domains')]);
    expect(toastTitles()).toEqual(['Session Expired']);
    await vi.waitFor(() => expect(sessionFetch).toHaveBeenCalledTimes(1));
    unsubscribe();
  });

  it('asks for the session after a failed mutation without a notice, and tells nothing itself', async () => {
    const { queryClient, sessionFetch, unsubscribe } = clientWithSession();
    const ownHandler = vi.fn();
    const mutation = queryClient.getMutationCache().build(queryClient, { mutationFn: () => Promise.reject(unauthorized()) });
    await mutation.execute(undefined).catch(unlessUnauthorized(ownHandler));
    await vi.waitFor(() => expect(sessionFetch).toHaveBeenCalledTimes(1));
    expect(toastTitles()).toEqual([]);
    expect(ownHandler).not.toHaveBeenCalled();
    unsubscribe();
  });

  it('leaves every other failure to the page', async () => {
    const { queryClient, sessionFetch, unsubscribe } = clientWithSession();
    const failure = new ApiError(500, 'Internal Server Error', '');
    await queryClient.fetchQuery({ queryKey: ['/api/alerts'], queryFn: () => Promise.reject(failure), meta: { unauthorized: notice } }).catch(() => {});
    const ownHandler = vi.fn();
    unlessUnauthorized(ownHandler)(failure);
    expect(ownHandler).toHaveBeenCalledWith(failure);
    expect(toastTitles()).toEqual([]);
    expect(sessionFetch).not.toHaveBeenCalled();
    unsubscribe();
  });
});
