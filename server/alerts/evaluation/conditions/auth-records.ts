import type { AlertSeverity } from '@contracts/alerts';
import type { DomainFacts } from '../../../insights/alert-figures';
import type { EvaluationData, Measured } from './shared';

/* SPF, DKIM and DMARC records of each checked domain, as the domain's status judges them. */

/** What is wrong, one sentence per failing part, from the checks' own findings (as the domain page says it). */
function problems(d: DomainFacts): string[] {
  const sentences: string[] = [];
  if (d.checks && !d.checks.resolves)
    sentences.push('The domain does not resolve: it has no A, AAAA, MX or SPF record.');
  for (const [label, status, check] of [
    ['SPF', d.spfStatus, d.checks?.spf],
    ['DKIM', d.dkimStatus, d.checks?.dkim],
    ['DMARC', d.dmarcStatus, d.checks?.dmarc],
  ] as const) {
    if (status === 'valid') continue;
    const finding = check?.findings.find((f) => f.severity === 'error');
    sentences.push(
      finding?.message ?? (status === 'missing' ? `No ${label} record was found.` : `The ${label} record is invalid.`),
    );
  }
  return sentences;
}

export function authRecordConditions({ domains }: EvaluationData): Measured[] {
  return domains
    .filter((d) => d.lastCheckedAt !== null && d.status !== 'pending')
    .map((d) => {
      const failing = [
        ...(d.checks && !d.checks.resolves ? ['does not resolve'] : []),
        ...(['SPF', 'DKIM', 'DMARC'] as const)
          .map(
            (label) =>
              [label, label === 'SPF' ? d.spfStatus : label === 'DKIM' ? d.dkimStatus : d.dmarcStatus] as const,
          )
          .filter(([, status]) => status !== 'valid')
          .map(([label, status]) => `${label} ${status ?? 'not checked'}`),
      ];
      // The domain status rule (ADR 007): error when it does not resolve or SPF or DMARC is missing, warning for the
      // rest.
      const severity: AlertSeverity | null = d.status === 'error' ? 'error' : d.status === 'warning' ? 'warning' : null;
      return {
        key: `auth-records:${d.domain}`,
        recovered: `SPF, DKIM and DMARC of ${d.domain} are all valid.`,
        alert: severity && {
          type: 'authentication_failure',
          severity,
          title:
            severity === 'error'
              ? `${d.domain} fails its authentication checks`
              : `${d.domain} has authentication issues`,
          message: `${problems(d).join(' ')} Open the domain to see how to fix each record.`,
          domain: d.domain,
          measure: `Authentication of ${d.domain}`,
          metadata: {
            value: failing.join(', '),
            domain: d.domain,
            status: d.status,
            spf: d.spfStatus,
            dkim: d.dkimStatus,
            dmarc: d.dmarcStatus,
          },
        },
      };
    });
}
