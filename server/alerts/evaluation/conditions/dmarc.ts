import type { AlertSeverity } from '@contracts/alerts';
import { DMARC_DAYS, DMARC_FAIL_CRITICAL, DMARC_FAIL_WARNING, MIN_MESSAGES } from './thresholds';
import { count, pct, type EvaluationData, type Measured } from './shared';

/* The share of mail failing DMARC in each domain's recent reports. */

export function dmarcConditions({ dmarc }: EvaluationData): Measured[] {
  return dmarc
    .filter((d) => d.total >= MIN_MESSAGES)
    .map((d) => {
      const value = pct(d.failed, d.total);
      const severity: AlertSeverity | null =
        value > DMARC_FAIL_CRITICAL ? 'critical' : value > DMARC_FAIL_WARNING ? 'warning' : null;
      const top = d.topSources[0];
      return {
        key: `dmarc-failures:${d.domain}`,
        recovered: `${value}% of the messages DMARC reports counted for ${d.domain} in the last ${DMARC_DAYS} days failed DMARC (threshold ${DMARC_FAIL_WARNING}%).`,
        alert: severity && {
          type: 'authentication_failure',
          severity,
          title: `${value}% of mail as ${d.domain} fails DMARC`,
          message:
            `DMARC reports of the last ${DMARC_DAYS} days counted ${count(d.failed)} of ${count(d.total)} messages as ${d.domain} failing DMARC (${value}%, threshold ${DMARC_FAIL_WARNING}%)` +
            `${top ? `; the top failing source is ${top.ip} (${count(top.count)})` : ''}. ` +
            `Add your legitimate senders to SPF and sign their mail with DKIM for ${d.domain}; block the rest with p=quarantine or p=reject.`,
          domain: d.domain,
          measure: `DMARC failures for ${d.domain}`,
          unit: '%',
          metadata: {
            value,
            threshold: DMARC_FAIL_WARNING,
            critical: DMARC_FAIL_CRITICAL,
            window: `${DMARC_DAYS}d`,
            domain: d.domain,
            messages: d.total,
            failed: d.failed,
            topFailingSources: d.topSources,
          },
        },
      };
    });
}
