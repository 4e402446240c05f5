import type { AlertSeverity } from '@contracts/alerts';
import { INBOX_CRITICAL } from './thresholds';
import { pct, type EvaluationData, type Measured } from './shared';
import { latestTestByDomain, sender } from './placements';

/* Inbox placement of each From domain's latest test, against the user's threshold. */

export function inboxConditions({ tests, settings }: EvaluationData): Measured[] {
  const threshold = settings.inboxThreshold;
  return [...latestTestByDomain(tests)].map(([key, p]) => {
    const value = pct(p.inbox, p.seeds);
    const measure = `Inbox placement for ${sender(p)}`;
    const severity: AlertSeverity | null = value < INBOX_CRITICAL ? 'critical' : value < threshold ? 'warning' : null;
    return {
      key: `inbox:${key}`,
      recovered: `${measure} is ${value}% in the latest test (threshold ${threshold}%).`,
      alert: severity && {
        type: 'deliverability_drop',
        severity,
        title: `Inbox placement for ${sender(p)} fell to ${value}%`,
        message:
          `The latest inbox test from ${sender(p)} reached the inbox at ${p.inbox} of ${p.seeds} seed mailboxes (${value}%, threshold ${threshold}%). ` +
          `Open the test's report to fix the authentication, content or blocklist issues it found, then run another test.`,
        domain: p.domain,
        measure,
        unit: '%',
        metadata: {
          value,
          threshold,
          domain: p.domain ?? 'unknown',
          inbox: p.inbox,
          seeds: p.seeds,
          testId: p.testId,
          completedAt: p.completedAt.toISOString(),
        },
      },
    };
  });
}
