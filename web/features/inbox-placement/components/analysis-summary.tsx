import type { InboxTestReport } from '@contracts/inbox-tests';
import { Pill, type Tone } from '../../../components/ui/pill';
import { formatDateTime } from '../../../lib/format';
import { formatPoints } from './analysis-parts';

const VERDICT_TONE: Record<InboxTestReport['verdict'], Tone> = {
  Excellent: 'good',
  Good: 'good',
  'Needs work': 'warn',
  Poor: 'bad',
};

/** Which engines made the score, so a score without SpamAssassin is never read as one with it. */
function scoredBy(engines: InboxTestReport['engines']): string {
  const spamAssassin = engines.find((engine) => engine.id === 'spamassassin')?.status ?? 'not-configured';
  if (spamAssassin === 'ran') return 'Scored by InboxPulse checks and SpamAssassin.';
  if (spamAssassin === 'failed')
    return 'Scored by InboxPulse checks only: SpamAssassin could not check this message (see below).';
  return 'Scored by InboxPulse checks only: SpamAssassin is not configured on this server.';
}

/** The score out of 10 with its verdict, and every deduction with its fix. */
export function AnalysisSummary({ report, testId }: { report: InboxTestReport; testId: number }) {
  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-center gap-3">
        <p className="text-3xl font-bold">
          <span className="sr-only">Score </span>
          {/* The number alone in its own element, so a search for it inside the score finds exactly one match. */}
          <span data-testid={`inbox-test-score-${testId}`}>
            <span>{formatPoints(report.score)}</span>
          </span>
          <span className="text-base font-medium text-muted-foreground">/10</span>
        </p>
        <Pill tone={VERDICT_TONE[report.verdict]}>{report.verdict}</Pill>
        <span className="text-xs text-muted-foreground">Analysed {formatDateTime(report.analysedAt)}</span>
      </div>
      <p className="text-xs text-muted-foreground" data-testid="analysis-engines">
        {scoredBy(report.engines)}
      </p>
      {report.simulated && (
        <p className="text-xs text-muted-foreground">
          Simulated analysis: the message was not received over SMTP, so SPF and the connecting IP were not checked.
        </p>
      )}
      {report.deductions.length === 0 ? (
        <p className="text-sm text-green-800">Nothing cost points: no deductions.</p>
      ) : (
        <div className="space-y-2">
          <h5 className="text-sm font-semibold">What cost points</h5>
          <ul aria-label="Deductions" className="space-y-2">
            {report.deductions.map((deduction) => (
              <li
                key={deduction.id}
                className="rounded-md border border-red-100 bg-red-50/60 p-3 text-sm"
                data-testid="analysis-deduction"
              >
                <div className="flex items-start justify-between gap-3">
                  <span className="min-w-0 font-medium [overflow-wrap:anywhere]">{deduction.title}</span>
                  <span className="shrink-0 font-semibold text-red-700">-{formatPoints(deduction.deduction)}</span>
                </div>
                {deduction.fix && (
                  <p className="mt-1 text-muted-foreground [overflow-wrap:anywhere]">
                    <span className="font-medium text-foreground">Fix: </span>
                    {deduction.fix}
                  </p>
                )}
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
