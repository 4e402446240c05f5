import type { PlacementRates, PlacementTotals } from '../placement';
import { TONE_TEXT } from '../../../components/tone';
import { formatCount, formatRate, inboxRateTone, spamRateTone, type Tone } from '../../../lib/format';

function Figure({
  label,
  value,
  note,
  tone,
  testId,
}: {
  label: string;
  value: string;
  note?: string;
  tone?: Tone;
  testId: string;
}) {
  return (
    <div className="rounded-md border p-3">
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className={`text-2xl font-bold ${tone ? TONE_TEXT[tone] : ''}`} data-testid={testId} data-tone={tone}>
        {value}
      </dd>
      {note && <dd className="text-xs text-muted-foreground">{note}</dd>}
    </div>
  );
}

/**
 * Overall inbox, spam and missing rates (rounded percentages of seedsUsed) and the number of seeds
 * tested. Inbox and spam rates are coloured by their value (thresholds in web/lib/format.ts): 0% in
 * the inbox is red, 0% in spam green. Missing has no threshold of its own and stays neutral.
 */
export function PlacementOverview({ totals, rates }: { totals: PlacementTotals; rates: PlacementRates }) {
  return (
    <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
      <Figure
        label="Inbox Rate"
        value={formatRate(rates.inbox)}
        note={`${totals.inboxCount} of ${totals.seedsUsed}`}
        tone={inboxRateTone(rates.inbox)}
        testId="rate-inbox"
      />
      <Figure
        label="Spam Rate"
        value={formatRate(rates.spam)}
        note={`${totals.spamCount} of ${totals.seedsUsed}`}
        tone={spamRateTone(rates.spam)}
        testId="rate-spam"
      />
      <Figure
        label="Missing Rate"
        value={formatRate(rates.missing)}
        note={`${totals.missingCount} of ${totals.seedsUsed}`}
        tone="none"
        testId="rate-missing"
      />
      <Figure
        label="Total Tests"
        value={formatCount(totals.seedsUsed)}
        note={`${totals.seedsUsed === 1 ? 'seed mailbox' : 'seed mailboxes'}${totals.pendingCount > 0 ? `, ${totals.pendingCount} not answered yet` : ''}`}
        testId="total-tests"
      />
    </dl>
  );
}
