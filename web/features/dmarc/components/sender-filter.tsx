import { Button } from '../../../components/ui/button';
import { useDmarcReports, type ReportSender } from '../api';
import { unauthenticatedCountText } from '../dmarc-text';

const SENDERS: Array<{ value: ReportSender | 'all'; label: string }> = [
  { value: 'all', label: 'All senders' },
  { value: 'authenticated', label: 'Authenticated' },
  { value: 'unauthenticated', label: 'Unauthenticated' },
];

/** Narrows a domain's reports to those whose mail did, or did not, prove it came from the reporter. */
export function SenderFilter({
  value,
  onChange,
}: {
  value: ReportSender | undefined;
  onChange: (sender: ReportSender | undefined) => void;
}) {
  return (
    <select
      aria-label="Filter by sender"
      value={value ?? 'all'}
      onChange={(event) => onChange(event.target.value === 'all' ? undefined : (event.target.value as ReportSender))}
      className="h-8 rounded-md border border-input bg-background px-2 text-xs focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
    >
      {SENDERS.map(({ value: sender, label }) => (
        <option key={sender} value={sender}>
          {label}
        </option>
      ))}
    </select>
  );
}

/**
 * Says how many of the domain's reports are kept apart (anyone can mail a report), with a button that
 * lists only them; nothing while there are none. It asks page 1 of the Unauthenticated list itself, so
 * choosing that filter shows the list at once from the same answer.
 */
export function UnauthenticatedReportsNote({
  domain,
  filtered,
  onShow,
}: {
  domain: string;
  filtered: boolean;
  onShow: () => void;
}) {
  const unauthenticated = useDmarcReports({ domain, sender: 'unauthenticated' }, 1);
  const count = unauthenticated.data?.total ?? 0;
  if (count === 0) return null;
  return (
    <p
      data-testid="unauthenticated-reports-note"
      className="flex flex-wrap items-center gap-x-2 rounded-md border border-yellow-200 bg-yellow-50 px-3 py-2 text-sm text-yellow-900"
    >
      {unauthenticatedCountText(count)}
      {!filtered && (
        <Button variant="link" className="h-auto p-0 text-yellow-900 underline" onClick={onShow}>
          Show unauthenticated reports
        </Button>
      )}
    </p>
  );
}
