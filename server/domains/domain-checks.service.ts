import type { DomainChecks } from '@contracts/domains';
import { raiseAlert } from '../alerts/alerts.service';
import type { Db } from '../platform/db/client';
import { domainStatus, runDomainChecks } from './checks/run-checks';
import { DnsLookupError, type DnsResolver } from '../platform/dns/resolver';
import { AppError } from '../platform/errors';
import { replayUnroutedFor } from '../platform/smtp/inbound.repo';
import { saveDomainChecks, type DomainRow } from './domains.repo';

const RECORDS = [
  { key: 'spfRecord', label: 'SPF' },
  { key: 'dkimRecord', label: 'DKIM' },
  { key: 'dmarcRecord', label: 'DMARC' },
] as const;

/**
 * Runs every check on one domain, stores the outcome and raises an alert for each record or status
 * that changed since the last check (never on the first check, never when nothing changed).
 */
export async function recheckDomain(db: Db, dns: DnsResolver, row: DomainRow): Promise<DomainRow> {
  let checks: DomainChecks;
  try {
    checks = await runDomainChecks(dns, row);
  } catch (err) {
    if (err instanceof DnsLookupError) {
      throw new AppError('unavailable', `DNS lookups for ${row.domain} failed (${err.code}); nothing was changed. Try again in a minute.`);
    }
    throw err;
  }
  const next = {
    status: domainStatus(checks),
    // Ownership is proven at every check, not once: a domain sold or handed over stops sending its
    // reports to a former owner as soon as the record is gone (a failed lookup throws above and changes nothing).
    isVerified: checks.ownershipVerified,
    spfRecord: checks.spf.record,
    dkimRecord: checks.dkim.record,
    dmarcRecord: checks.dmarc.record,
    spfStatus: checks.spf.status,
    dkimStatus: checks.dkim.status,
    dmarcStatus: checks.dmarc.status,
    checks,
    lastCheckedAt: new Date(checks.checkedAt),
  };
  return db.transaction(async (tx) => {
    const updated = await saveDomainChecks(tx, row.id, next);
    // Reports mailed before the owner proved ownership were kept aside (ADR 010): now they can go to them.
    if (!row.isVerified && next.isVerified) await replayUnroutedFor(tx, row.domain);
    if (row.isVerified && !next.isVerified) {
      await raiseAlert(tx, {
        userId: row.userId,
        type: 'dns_changes',
        severity: 'error',
        title: `Ownership of ${row.domain} is no longer verified`,
        message: `The ownership record of ${row.domain} is gone, so its DMARC reports are no longer routed to you. Publish it again to resume.`,
        domain: row.domain,
        metadata: { record: 'ownership' },
      });
    }
    if (row.lastCheckedAt === null) return updated;
    for (const { key, label } of RECORDS) {
      if (row[key] === next[key]) continue;
      await raiseAlert(tx, {
        userId: row.userId,
        type: 'dns_changes',
        severity: 'warning',
        title: `${label} record changed for ${row.domain}`,
        message: `${label} record of ${row.domain} changed from "${row[key] ?? 'none'}" to "${next[key] ?? 'none'}".`,
        domain: row.domain,
        metadata: { record: label, before: row[key], after: next[key] },
      });
    }
    if (row.status !== next.status) {
      await raiseAlert(tx, {
        userId: row.userId,
        type: 'authentication_failure',
        severity: next.status === 'error' ? 'error' : next.status === 'warning' ? 'warning' : 'info',
        title: `${row.domain} is now ${next.status}`,
        message: `Authentication status of ${row.domain} changed from ${row.status} to ${next.status} (SPF ${next.spfStatus}, DKIM ${next.dkimStatus}, DMARC ${next.dmarcStatus}).`,
        domain: row.domain,
        metadata: { before: row.status, after: next.status },
      });
    }
    return updated;
  });
}
