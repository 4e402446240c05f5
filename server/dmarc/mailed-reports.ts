import { verifiedOwnersOf } from '../domains/domains.service';
import type { Db } from '../platform/db/client';
import { AppError } from '../platform/errors';
import { readReports, storeReports } from './ingest';

export interface MailedReportsOutcome {
  /** processed: stored for at least one user. unrouted: no user has verified the reports' domains. failed: nothing readable. */
  status: 'processed' | 'unrouted' | 'failed';
  /** What happened, in words, for the operator (kept on the inbound message). */
  result: string;
  /** The domains the readable reports cover. */
  reportDomains: string[];
}

/**
 * Reports that arrived by mail (at dmarc@INBOUND_DOMAIN or in the DMARC_IMAP_URL mailbox) go to
 * every user who has verified the report's domain or a parent domain of it: ownership proven by
 * DNS, so nobody receives another sender's reports by adding their domain. A report that does not
 * parse cannot be routed (its domain is unknown): it stays on the inbound message for the operator.
 */
export async function ingestMailedReports(db: Db, raw: Uint8Array, fileName: string): Promise<MailedReportsOutcome> {
  let reports;
  try {
    reports = await readReports(raw, fileName);
  } catch (error) {
    if (error instanceof AppError) return { status: 'failed', result: error.message, reportDomains: [] };
    throw error;
  }
  if (reports.length === 0) return { status: 'failed', result: 'The message carries no DMARC report (no XML, gzip or zip part).', reportDomains: [] };

  const lines: string[] = [];
  const reportDomains = new Set<string>();
  let stored = 0;
  for (const report of reports) {
    if (!report.parsed.ok) {
      lines.push(`${report.fileName}: ${report.parsed.error}`);
      continue;
    }
    const domain = report.parsed.report.policy.domain.toLowerCase();
    reportDomains.add(domain);
    const owners = await verifiedOwnersOf(db, domain);
    if (owners.length === 0) {
      lines.push(`${report.fileName}: no user has verified ${domain}`);
      continue;
    }
    for (const userId of owners) {
      const outcome = await storeReports(db, userId, [report]);
      stored++;
      lines.push(`${report.fileName}: ${outcome.imported ? 'imported' : 'duplicate'} for user ${userId}`);
    }
  }
  const anyParsed = reports.some((r) => r.parsed.ok);
  return { status: stored > 0 ? 'processed' : anyParsed ? 'unrouted' : 'failed', result: lines.join('\n'), reportDomains: [...reportDomains] };
}
