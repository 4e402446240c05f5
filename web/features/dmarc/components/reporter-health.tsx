import { TriangleAlert } from 'lucide-react';
import type { DmarcReporter } from '@contracts/dmarc';
import { formatDate, relativeAge } from '../../../lib/format';
import { plural } from '../dmarc-text';
import { Pill } from '../../../components/ui/pill';

/** Stopped reporters first (they need attention), then the most recent. */
function byAttention(a: DmarcReporter, b: DmarcReporter): number {
  if (a.stopped !== b.stopped) return a.stopped ? -1 : 1;
  return b.lastReportAt.localeCompare(a.lastReportAt);
}

function ReporterItem({ reporter }: { reporter: DmarcReporter }) {
  const name = reporter.orgName || 'Unnamed reporter';
  return (
    <li data-testid="dmarc-reporter" data-stopped={reporter.stopped} className="space-y-1 rounded-md border p-3">
      <div className="flex flex-wrap items-center gap-2">
        <span className="wrap-anywhere font-medium">{name}</span>
        {reporter.daily && <Pill tone="none">Daily</Pill>}
      </div>
      <p className="text-sm text-muted-foreground">
        Last report {formatDate(reporter.lastReportAt, { utc: true })} ({relativeAge(reporter.lastReportAt)}) ·{' '}
        {plural(reporter.reports, 'report')}
      </p>
      {reporter.stopped && (
        <p data-testid="reporter-stopped" className="flex items-start gap-2 text-sm font-medium text-red-700">
          <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          <span>
            <span className="sr-only">Warning: </span>No report for {plural(reporter.silentDays, 'day')}. {name} used to
            report daily: check that your DMARC record still has the rua= address and that reports still reach it.
          </span>
        </p>
      )}
    </li>
  );
}

/** Report pipeline health: each reporting organisation and when it last sent a report. */
export function ReporterHealth({ reporters }: { reporters: DmarcReporter[] }) {
  if (reporters.length === 0)
    return <p className="text-sm text-muted-foreground">No organisation has sent a report for this domain yet.</p>;
  return (
    <ul aria-label="Reporting organisations" className="grid gap-2 sm:grid-cols-2">
      {[...reporters].sort(byAttention).map((reporter) => (
        <ReporterItem key={reporter.orgName} reporter={reporter} />
      ))}
    </ul>
  );
}
