import type { CheckStatus, DomainChecks } from '@contracts/domains';
import type { DomainRow } from './domains.repo';

/*
 * The history of a domain's records for the deliverability timeline (ADR 035): one row per record
 * whose value or verdict changed since the check before, written in the check's transaction. The
 * words are the record-change alerts' own (domainAlerts), so the timeline and the alert agree.
 */

export type DnsRecordKind = 'spf' | 'dkim' | 'dmarc' | 'mx';

export interface DnsChange {
  record: DnsRecordKind;
  before: string | null;
  after: string | null;
  statusBefore: CheckStatus | null;
  statusAfter: CheckStatus;
  summary: string;
}

/** What an alert about one record says; `record` is the alert metadata's ('SPF', 'DKIM', 'DMARC'). */
export interface RecordAlert {
  message: string;
  metadata?: Record<string, unknown> | null;
}

const LABEL: Record<DnsRecordKind, string> = { spf: 'SPF', dkim: 'DKIM', dmarc: 'DMARC', mx: 'MX' };

/** DKIM as one value: a line per selector with its record (keys compared whole, shown by the alerts' fingerprints). */
function dkimValue(checks: DomainChecks | null, fallback: string | null): string | null {
  if (!checks) return fallback;
  const lines = checks.dkim.selectors
    .filter((s) => s.record)
    .map((s) => `${s.selector}: ${s.record}`)
    .sort();
  return lines.length ? lines.join('\n') : null;
}

function mxValue(checks: DomainChecks | null): string | null {
  if (!checks || checks.mx.hosts.length === 0) return null;
  return [...checks.mx.hosts]
    .sort((a, b) => a.priority - b.priority || a.exchange.localeCompare(b.exchange))
    .map((h) => `${h.priority} ${h.exchange}`)
    .join(', ');
}

/** "The SPF check now fails (missing): No SPF record found." or "The SPF check passes again." */
function verdictWords(record: DnsRecordKind, before: CheckStatus | null, checks: DomainChecks): string | null {
  const after = checks[record].status;
  if (before === after || before === null) return null;
  if (after === 'valid') return `The ${LABEL[record]} check passes again.`;
  const problem = checks[record].findings.find((f) => f.severity === 'error') ?? checks[record].findings[0];
  return `The ${LABEL[record]} check now fails (${after})${problem ? `: ${problem.message.replace(/\.$/, '')}` : ''}.`;
}

/**
 * The records of `previous` (the stored row, checked before) that changed in `checks`. A first check
 * has nothing to compare with and gives none; a record that differs only in spacing (no alert words)
 * is no change, as a receiver reads it the same.
 */
export function dnsChanges(previous: DomainRow, checks: DomainChecks, alerts: readonly RecordAlert[]): DnsChange[] {
  if (previous.lastCheckedAt === null) return [];
  const values: Record<DnsRecordKind, [string | null, string | null]> = {
    spf: [previous.spfRecord, checks.spf.record],
    dkim: [dkimValue(previous.checks, previous.dkimRecord), dkimValue(checks, null)],
    dmarc: [previous.dmarcRecord, checks.dmarc.record],
    mx: [mxValue(previous.checks), mxValue(checks)],
  };
  const statusBefore: Record<DnsRecordKind, CheckStatus | null> = {
    spf: previous.spfStatus,
    dkim: previous.dkimStatus,
    dmarc: previous.dmarcStatus,
    mx: previous.checks?.mx.status ?? null,
  };
  const changes: DnsChange[] = [];
  for (const record of ['spf', 'dkim', 'dmarc', 'mx'] as const) {
    const [before, after] = values[record];
    const words: string[] = [];
    if (before !== after) {
      if (record === 'mx')
        words.push(`The MX records of ${previous.domain} changed from ${before ?? 'none'} to ${after ?? 'none'}.`);
      else words.push(...alerts.filter((a) => a.metadata?.record === LABEL[record]).map((a) => a.message));
    }
    const verdict = verdictWords(record, statusBefore[record], checks);
    if (verdict) words.push(verdict);
    if (words.length === 0) continue;
    changes.push({
      record,
      before,
      after,
      statusBefore: statusBefore[record],
      statusAfter: checks[record].status,
      summary: words.join(' '),
    });
  }
  return changes;
}
