import type { AlertSeverity } from '@contracts/alerts';
import { SCORE_CRITICAL } from './thresholds';
import { round, type EvaluationData, type Measured } from './shared';

/* The sender score of each IP and domain, against the user's threshold. */

function scoreMeasured(
  key: string,
  what: string,
  score: number,
  threshold: number,
  domain: string | null,
  extra: Record<string, unknown>,
): Measured {
  const value = round(score);
  const severity: AlertSeverity | null = value < SCORE_CRITICAL ? 'critical' : value < threshold ? 'warning' : null;
  return {
    key,
    recovered: `the sender score of ${what} is ${value} (threshold ${threshold}).`,
    alert: severity && {
      type: 'reputation_decline',
      severity,
      title: `Sender score of ${what} is ${value}`,
      message: `The sender score of ${what} is ${value}, below your threshold of ${threshold}. Open its reputation to see what costs points (listings, reverse DNS, DMARC failures, spam placement) and fix those first.`,
      domain,
      measure: `Sender score of ${what}`,
      metadata: { value, threshold, critical: SCORE_CRITICAL, ...extra },
    },
  };
}

export function scoreConditions({ ips, domains, settings }: EvaluationData): Measured[] {
  const t = settings.reputationThreshold;
  return [
    ...ips
      .filter((ip) => ip.senderScore !== null)
      .map((ip) =>
        scoreMeasured(`score:ip:${ip.ipAddress}`, ip.ipAddress, ip.senderScore!, t, null, { ipAddress: ip.ipAddress }),
      ),
    ...domains
      .filter((d) => d.reputationScore !== null)
      .map((d) =>
        scoreMeasured(`score:domain:${d.domain}`, d.domain, d.reputationScore!, t, d.domain, { domain: d.domain }),
      ),
  ];
}
