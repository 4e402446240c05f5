import type { DomainDetail } from '@contracts/domains';
import { serverMessageOr } from '../../lib/api-client';
import { domainStatusLabel } from './status';

export interface VerifyNotice {
  title: string;
  description: string;
  variant: 'default' | 'destructive';
}

/** Part 2, sections 7 and 8: the success title, and the failure's title and words when the server gave none. */
export const VERIFY_COMPLETE_TITLE = 'DNS Verification Complete';
export const VERIFY_FAILED_TITLE = 'Verification Failed';
export const VERIFY_FAILED_FALLBACK = 'Failed to verify domain DNS records';

const RECORD_PROBLEMS = {
  spfStatus: { missing: 'no SPF record', invalid: 'SPF invalid' },
  dkimStatus: { missing: 'no DKIM key found', invalid: 'DKIM invalid' },
  dmarcStatus: { missing: 'no DMARC record', invalid: 'DMARC invalid' },
} as const;

/** What keeps a checked domain from being healthy, in the order the status rule weighs them (ADR 007). */
export function verifyProblems(detail: DomainDetail): string[] {
  const problems: string[] = [];
  if (detail.checks && !detail.checks.resolves) problems.push('the domain does not resolve');
  for (const key of ['spfStatus', 'dkimStatus', 'dmarcStatus'] as const) {
    const status = detail[key];
    if (status === 'missing' || status === 'invalid') problems.push(RECORD_PROBLEMS[key][status]);
  }
  return problems;
}

/**
 * The toast after Verify DNS. "DNS Verification Complete" is said only of a healthy domain: a check
 * that found problems is titled by its status and the problems, e.g. "Critical: no SPF record, no DMARC record".
 */
export function verifyNotice(detail: DomainDetail): VerifyNotice {
  const label = domainStatusLabel(detail.status);
  const ownership = detail.isVerified
    ? []
    : [`Ownership is not verified yet: publish the TXT record ${detail.verificationRecord.name}.`];
  if (detail.status === 'healthy') {
    return {
      title: VERIFY_COMPLETE_TITLE,
      description: [`${detail.domain}: ${label}`, ...ownership].join('. '),
      variant: 'default',
    };
  }
  const problems = verifyProblems(detail);
  return {
    title: problems.length ? `${label}: ${problems.join(', ')}` : `DNS Verification: ${label}`,
    description: [
      `${detail.domain}: ${label}. The DNS check details below say how to fix ${problems.length === 1 ? 'it' : 'them'}.`,
      ...ownership,
    ].join(' '),
    variant: detail.status === 'error' ? 'destructive' : 'default',
  };
}

/** The toast when the check could not run: the server's own sentence (a SERVFAIL says so and that nothing changed). */
export function verifyFailedNotice(error: unknown): VerifyNotice {
  return {
    title: VERIFY_FAILED_TITLE,
    description: serverMessageOr(error, VERIFY_FAILED_FALLBACK),
    variant: 'destructive',
  };
}
