import type { Alert } from '@contracts/alerts';
import { formatDateTime } from '../../../lib/format';

const EVENT_LABELS: Record<Alert['history'][number]['event'], string> = {
  raised: 'Raised',
  updated: 'Updated',
  resolved: 'Resolved',
  acknowledged: 'Acknowledged',
  read: 'Read',
};

/** What happened to the alert, oldest first, with times. */
export function AlertHistory({ history }: { history: Alert['history'] }) {
  if (history.length === 0)
    return <p className="text-sm text-muted-foreground">Nothing has happened to this alert since it was raised.</p>;
  return (
    <ol className="space-y-3 border-l pl-4" data-testid="alert-history">
      {history.map((entry, index) => (
        <li key={`${entry.at}-${index}`} data-testid="history-entry" data-event={entry.event} className="relative">
          <span className="absolute top-1.5 -left-[1.3rem] size-2 rounded-full bg-primary" aria-hidden="true" />
          <p className="text-sm">
            <span className="font-medium">{EVENT_LABELS[entry.event]}</span>
            <span className="text-muted-foreground"> · {formatDateTime(entry.at)}</span>
          </p>
          {entry.message && <p className="text-sm text-muted-foreground wrap-anywhere">{entry.message}</p>}
        </li>
      ))}
    </ol>
  );
}
