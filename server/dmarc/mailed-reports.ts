import { verifiedOwnersOf } from '../domains/domains.service';
import type { Db, Executor } from '../platform/db/client';
import { AppError } from '../platform/errors';
import { storeFailedImport } from './dmarc.repo';
import { readReportHeader } from './parse-aggregate';
import { importReport } from './import-report';
import { unauthenticatedReason } from './report-sender';
import { unpackUpload, type FoundFailureReport } from './unpack';

export interface MailedReportsOutcome {
  /** processed: stored for at least one user. unrouted: no user has verified the reports' domains. failed: nothing readable. */
  status: 'processed' | 'unrouted' | 'failed';
  /** What happened, in words, for the operator (kept on the inbound message). */
  result: string;
  /** The domains the readable reports cover. */
  reportDomains: string[];
  /** The users a report was newly stored for. */
  importedFor?: number[];
  /**
   * Unrouted, with a report whose mail proved its reporter: worth keeping whole for a day, to replay for an owner
   * who verifies its domain then (ADR 010). A stranger's unrouted or unreadable mail is not kept (issue 36).
   */
  replayable?: boolean;
}

/**
 * Reports that arrived by mail (at dmarc@INBOUND_DOMAIN or in the DMARC_IMAP_URL mailbox) go to
 * every user who has verified the report's domain or a parent domain of it: ownership proven by
 * DNS, so nobody receives another sender's reports by adding their domain. Runs in the
 * report-intake thread (report-intake.ts).
 *
 * Anyone can mail dmarc@, so a report's records are read only once its header (report_metadata and
 * policy_published, which come first) names a domain someone verified: a large report for a domain
 * nobody here owns costs a header read, not a parse. A report whose header does not parse cannot be
 * routed and stays on the inbound message for the operator; one that names an owned domain but
 * fails further on is kept as a failed import for its owners, so they see what went wrong.
 *
 * `provenDomains`: what the mail proved it came from (report-sender.ts); a report whose reporter is
 * not among them is stored as unauthenticated with the reason, kept apart (import-report.ts: its own
 * small allowance, never in the analytics) and never shadows a trusted copy.
 *
 * A failure report (RFC 9991) is not imported, but goes the same way by its Reported-Domain: its
 * owners get a failed-import row saying what failed (unpack.ts), and nothing of the failed message.
 */
export async function ingestMailedReports(
  db: Db,
  raw: Uint8Array,
  fileName: string,
  provenDomains: string[],
): Promise<MailedReportsOutcome> {
  let parts;
  try {
    parts = await unpackUpload(raw, fileName);
  } catch (error) {
    if (error instanceof AppError) return { status: 'failed', result: error.message, reportDomains: [] };
    throw error;
  }
  if (parts.length === 0)
    return {
      status: 'failed',
      result: 'The message carries no DMARC report (no XML, gzip or zip part).',
      reportDomains: [],
    };

  const lines: string[] = [];
  const reportDomains = new Set<string>();
  const importedFor = new Set<number>();
  let stored = 0;
  let replayable = false;
  await db.transaction(async (tx) => {
    for (const part of parts) {
      if (part.error !== undefined) {
        const domains = part.failureReport?.arf.reportedDomains ?? [];
        if (domains.length === 0) lines.push(`${part.fileName}: ${part.error}`);
        for (const domain of domains) reportDomains.add(domain);
        if (part.failureReport) stored += await routeFailureReport(tx, part, part.failureReport, provenDomains, lines);
        continue;
      }
      if (part.warning) lines.push(`${part.fileName}: ${part.warning}`);
      const header = readReportHeader(part.bytes);
      if (!header.ok) {
        lines.push(`${part.fileName}: ${header.error}`);
        continue;
      }
      const domain = header.header.policy.domain;
      reportDomains.add(domain);
      const owners = await verifiedOwnersOf(tx, domain);
      const reason = unauthenticatedReason(header.header, provenDomains);
      if (owners.length === 0) {
        lines.push(`${part.fileName}: no user has verified ${domain}`);
        replayable ||= reason === null;
        continue;
      }
      // Read for each owner whose bounds leave the report a chance, its records stored as they are read (import-report.ts).
      const file = {
        fileName: part.fileName,
        rawSize: part.bytes.length,
        senderAuthenticated: reason === null,
        unauthenticatedReason: reason,
        // Kept if it then cannot be read, for its owners to download; a stranger's mail is not (issue 36, ADR 017).
        received: reason === null ? part.received : undefined,
      };
      for (const userId of owners) {
        stored++;
        const outcome = await importReport(tx, userId, { header: header.header, bytes: part.bytes }, file);
        if (outcome.kind === 'imported') importedFor.add(userId);
        const how = reason ? ' (sender not authenticated)' : '';
        lines.push(
          `${part.fileName}: ${outcome.kind === 'failed' ? `failed for user ${userId}: ${outcome.error}` : `${outcome.kind} for user ${userId}${how}`}`,
        );
      }
    }
  });
  const status = stored > 0 ? 'processed' : reportDomains.size > 0 ? 'unrouted' : 'failed';
  return {
    status,
    result: lines.join('\n'),
    reportDomains: [...reportDomains],
    importedFor: [...importedFor],
    ...(status === 'unrouted' && { replayable }),
  };
}

/**
 * A failure report, as its row saying what failed, to the verified owners of each domain it reports
 * on, once per owner: how many rows were stored. What was done is added to `lines`.
 */
async function routeFailureReport(
  tx: Executor,
  file: { fileName: string; rawSize: number; error: string },
  report: FoundFailureReport,
  provenDomains: string[],
  lines: string[],
): Promise<number> {
  // RFC 9991 section 5.1: the reporter's mail SHOULD be DMARC-aligned, so its From domain is what it must prove.
  const reason = unauthenticatedReason({ email: report.mailFrom, orgName: '' }, provenDomains);
  const keptFor = new Set<number>();
  for (const domain of report.arf.reportedDomains) {
    const owners = await verifiedOwnersOf(tx, domain);
    if (owners.length === 0) lines.push(`${file.fileName}: no user has verified ${domain}`);
    for (const userId of owners) {
      if (keptFor.has(userId)) continue;
      keptFor.add(userId);
      await storeFailedImport(tx, userId, {
        ...file,
        senderAuthenticated: reason === null,
        unauthenticatedReason: reason,
      });
      lines.push(
        `${file.fileName}: failure report for ${domain} kept for user ${userId}${reason ? ' (sender not authenticated)' : ''}`,
      );
    }
  }
  return keptFor.size;
}
