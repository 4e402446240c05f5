import { cn } from '../lib/utils';
import { CopyButton } from './copy-button';

/**
 * A value that can be longer than its place (a DNS record, a DKIM key, a subject): one line cut
 * with an ellipsis, the whole value in its tooltip and a button that copies it, so it never widens
 * the page and is never lost. Text meant to be read whole (an alert's message) wraps instead.
 */
export function LongValue({ value, copyLabel, className }: { value: string; copyLabel: string; className?: string }) {
  return (
    <span className={cn('flex min-w-0 items-center gap-1', className)}>
      <span className="min-w-0 flex-1 truncate" title={value}>
        {value}
      </span>
      <CopyButton value={value} label={copyLabel} />
    </span>
  );
}
