import { LoaderCircle } from 'lucide-react';
import { cn } from '../../lib/utils';

/** A spinning indicator with a text alternative, announced politely to screen readers. */
export function Spinner({ className, label = 'Loading' }: { className?: string; label?: string }) {
  return (
    <span role="status" className="inline-flex items-center">
      <LoaderCircle aria-hidden="true" className={cn('size-6 animate-spin text-primary', className)} />
      <span className="sr-only">{label}</span>
    </span>
  );
}

/** A wait in place of a page's content (or a large part of it): the shell and the page's heading stay put. */
export function ContentSpinner({ label }: { label?: string }) {
  return (
    <div className="flex justify-center py-16">
      <Spinner className="size-8" label={label} />
    </div>
  );
}
