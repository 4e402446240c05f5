import type { ReactNode } from 'react';
import type { UseQueryResult } from '@tanstack/react-query';
import { LoadError } from './load-error';

/**
 * The one way a part of a page shows what a query answered: `loading` while it waits, the failure
 * with a way to ask again, `empty` when `isEmpty` says there is nothing to show, else `children`
 * with the data. Each place keeps its own words and its own loading look.
 */
export function QueryState<T>({
  query,
  loading,
  errorMessage,
  errorVariant = 'inline',
  errorClassName,
  isEmpty,
  empty = null,
  children,
}: {
  query: UseQueryResult<T>;
  loading: ReactNode;
  /** The sentence shown on failure; a function when the server's own words should win (serverMessageOr). */
  errorMessage: string | ((error: Error) => string);
  errorVariant?: 'inline' | 'card';
  errorClassName?: string;
  isEmpty?: (data: T) => boolean;
  empty?: ReactNode;
  children: (data: T) => ReactNode;
}) {
  if (query.isPending) return <>{loading}</>;
  if (query.isError) {
    const message = typeof errorMessage === 'function' ? errorMessage(query.error) : errorMessage;
    return <LoadError variant={errorVariant} className={errorClassName} message={message} onRetry={query.refetch} />;
  }
  if (isEmpty?.(query.data)) return <>{empty}</>;
  return <>{children(query.data)}</>;
}
