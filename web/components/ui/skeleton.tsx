import { cn } from '../../lib/utils';

/** A grey placeholder in the shape of content that is still loading; the caller announces the loading. */
export function Skeleton({ className }: { className?: string }) {
  return <div aria-hidden="true" className={cn('animate-pulse rounded-md bg-muted', className)} />;
}
