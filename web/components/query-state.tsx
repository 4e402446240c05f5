import type { ReactNode } from 'react';
import type { UseQueryResult } from '@tanstack/react-query';
import { LoadError } from './load-error';

/** How a failure shows: the sentence with a way to ask again, or, where a failure is an answer (an expired link), the place's own view. */
type Failure =
  | {
      /** The sentence shown on failure; a function when the server's own words should win (serverMessageOr). */
      errorMessage: string | ((error: Error) => string);
      errorVariant?: 'inline' | 'card';
      errorClassName?: string;
      failed?: never;
    }
  | { failed: (error: Error) => ReactNode; errorMessage?: never; errorVariant?: never; errorClassName?: never };

/**
 * The one way a part of a page shows what a query answered: `loading` while it waits, the failure
 * (see Failure), `empty` when `isEmpty` says there is nothing to show, else `children` with the data.
 * Each place keeps its own words and its own loading look.
 */
export function QueryState<T>({
  query,
  loading,
  errorMessage,
  errorVariant = 'inline',
  errorClassName,
  failed,
  isEmpty,
  empty = null,
  children,
}: {
  query: UseQueryResult<T>;
  loading: ReactNode;
  isEmpty?: (data: T) => boolean;
  empty?: ReactNode;
  children: (data: T) => ReactNode;
} & Failure) {
  if (query.isPending) return <>{loading}</>;
  if (query.isError) {
    if (failed) return <>{failed(query.error)}</>;
    const message = typeof errorMessage === 'function' ? errorMessage(query.error) : errorMessage;
    return (
      <LoadError variant={errorVariant} className={errorClassName} message={message ?? ''} onRetry={query.refetch} />
    );
  }
  if (isEmpty?.(query.data)) return <>{empty}</>;
  return <>{children(query.data)}</>;
}
