import type { PlacementRates, PlacementTotals } from '../placement';
import { formatRate } from '../placement';
import { formatCount } from '../../../lib/format';

function Figure({ label, value, note, className, testId }: { label: string; value: string; note?: string; className?: string; testId: string }) {
  return (
    <div className="rounded-md border p-3">
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className={`text-2xl font-bold ${className ?? ''}`} data-testid={testId}>
        {value}
      </dd>
      {note && <dd className="text-xs text-muted-foreground">{note}</dd>}
    </div>
  );
}

/** Overall inbox, spam and missing rates (rounded percentages of seedsUsed) and the number of seeds tested. */
export function PlacementOverview({ totals, rates }: { totals: PlacementTotals; rates: PlacementRates }) {
  return (
    <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
      <Figure
        label="Inbox Rate"
        value={formatRate(rates.inbox)}
        note={`${totals.inboxCount} of ${totals.seedsUsed}`}
        className="text-green-700"
        testId="rate-inbox"
      />
      <Figure
        label="Spam Rate"
        value={formatRate(rates.spam)}
        note={`${totals.spamCount} of ${totals.seedsUsed}`}
        className="text-red-700"
        testId="rate-spam"
      />
      <Figure
        label="Missing Rate"
        value={formatRate(rates.missing)}
        note={`${totals.missingCount} of ${totals.seedsUsed}`}
        className="text-muted-foreground"
        testId="rate-missing"
      />
      <Figure
        label="Total Tests"
        value={formatCount(totals.seedsUsed)}
        note={totals.pendingCount > 0 ? `seed mailboxes, ${totals.pendingCount} not answered yet` : 'seed mailboxes'}
        testId="total-tests"
      />
    </dl>
  );
}
