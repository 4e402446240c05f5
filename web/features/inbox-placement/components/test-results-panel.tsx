import type { InboxTest, InboxTestResultRow } from '@contracts/inbox-tests';
import { QueryState } from '../../../components/query-state';
import { Spinner } from '../../../components/ui/spinner';
import { useInboxTestResults } from '../api';
import { summarizeResults } from '../placement';
import { BreakdownTable } from './breakdown-table';
import MessageAnalysis from './message-analysis';
import { PlacementOverview } from './placement-overview';
import { ProviderResultsTable } from './provider-results-table';

function Placement({ testId }: { testId: number }) {
  const results = useInboxTestResults(testId);
  return (
    <QueryState
      query={results}
      loading={<Spinner className="size-5" label="Loading results" />}
      errorMessage="Could not load the results."
      isEmpty={(rows) => rows.length === 0}
      empty={<p className="text-sm text-muted-foreground">No results were recorded for this test.</p>}
    >
      {(rows) => <PlacementResults rows={rows} />}
    </QueryState>
  );
}

function PlacementResults({ rows }: { rows: InboxTestResultRow[] }) {
  const summary = summarizeResults(rows);
  return (
    <div className="space-y-5">
      <PlacementOverview totals={summary.totals} rates={summary.rates} />
      {summary.analyserOnly ? (
        <p
          className="rounded-md border border-blue-200 bg-blue-50 p-3 text-sm text-blue-950"
          data-testid="analyser-only-note"
        >
          No seed network took part in this test. The one result comes from InboxPulse&apos;s own inbound analyser,
          which classes your email as inbox or spam by its analysis score; placement by region, country and mailbox
          system needs seed mailboxes at real providers.
        </p>
      ) : (
        <div className="space-y-5">
          <BreakdownTable title="Performance by region" dimension="Region" rows={summary.byRegion} />
          <BreakdownTable title="Performance by country" dimension="Country" rows={summary.byCountry} />
          <BreakdownTable
            title="Performance by mailbox system"
            dimension="Mailbox system"
            rows={summary.byMailboxSystem}
          />
        </div>
      )}
      <ProviderResultsTable rows={rows} />
    </div>
  );
}

/** The expanded results of a completed test: placement, then the analysis of the message. */
export default function TestResultsPanel({ test, id }: { test: InboxTest; id?: string }) {
  return (
    <div id={id} className="space-y-6 border-t pt-4" data-testid={`inbox-test-results-${test.id}`}>
      <section aria-label="Placement results" className="space-y-3">
        <h4 className="font-semibold">Placement results</h4>
        <Placement testId={test.id} />
      </section>
      <MessageAnalysis testId={test.id} />
    </div>
  );
}
