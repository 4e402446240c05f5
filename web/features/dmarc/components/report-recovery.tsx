import { Download } from 'lucide-react';
import type { DmarcReport } from '@contracts/dmarc';
import { Pill } from '../../../components/ui/pill';

/*
 * What the product did about a report it could not read as written (ADR 017): a report read with recoveries
 * says so, as parsedmarc would have read it; a failed one whose file was kept can be downloaded as it came.
 */

/** The pill on an imported report read with recoveries; the words are in its title and for screen readers. */
export function RecoveredPill({ report }: { report: DmarcReport }) {
  if (!report.warnings?.length) return null;
  const words = report.warnings.join(' ');
  return (
    <span title={words}>
      <Pill tone="warn" testId="recovered-report">
        Recovered
      </Pill>
      <span className="sr-only">{words}</span>
    </span>
  );
}

/** The warnings on the report's page: what was recovered, so that a name with a replaced byte is not taken as written. */
export function RecoveryWarnings({ report }: { report: DmarcReport }) {
  if (!report.warnings?.length) return null;
  return (
    <section aria-label="Read with recoveries" className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm">
      <p className="font-medium">This report was not well-formed; it was read as parsedmarc reads it:</p>
      <ul className="mt-1 list-disc space-y-0.5 pl-5">
        {report.warnings.map((warning) => (
          <li key={warning}>{warning}</li>
        ))}
      </ul>
    </section>
  );
}

/** A failed import's file, as it was received, for its owner to download (GET /api/dmarc/reports/:id/raw). */
export function KeptFileLink({ report }: { report: DmarcReport }) {
  if (!report.rawKept) return null;
  return (
    <a
      href={`/api/dmarc/reports/${report.id}/raw`}
      download
      className="inline-flex items-center gap-1 text-xs font-medium text-primary underline-offset-4 hover:underline"
      aria-label={`Download ${report.fileName} as it was received`}
    >
      <Download className="size-3" aria-hidden="true" />
      Download the file as received
    </a>
  );
}
