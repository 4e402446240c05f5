import {
  DMARC_RECORDS_PER_ACCOUNT,
  DOMAIN_BYTES_PER_DAY,
  DOMAIN_RECORDS_PER_DAY,
  REPORTER_BYTES_PER_DAY,
  REPORTER_RECORDS_PER_DAY,
  UNAUTHENTICATED_BYTES_PER_DOMAIN,
  UNAUTHENTICATED_RECORDS_PER_DOMAIN,
} from '@contracts/account';
import type { DmarcReport } from '@contracts/dmarc';
import { utcDay } from '@contracts/utc-day';
import { keepConditionAlert } from '../alerts/alerts.service';
import type { Executor } from '../platform/db/client';
import type { AggregateReport, ParseResult } from './aggregate-report';
import { storeFailedImport, storeReport, type StoredFile } from './dmarc.repo';
import type { ReportHeader } from './parse-aggregate';
import {
  arrivedToday,
  countedRecordCount,
  heldUnauthenticated,
  removeOldestReports,
  storedCopy,
  type Held,
} from './report-room.repo';

/** What became of one report file for one user. */
export type ImportOutcome =
  | { kind: 'imported'; report: DmarcReport }
  | { kind: 'duplicate' }
  | { kind: 'failed'; report: DmarcReport; error: string };

/**
 * A report to import: an upload's, parsed; or a mailed one's header, read without its records, and the
 * parse, made only when the header leaves the report a chance to be stored (a forged 50,000-record report
 * over its allowance costs a header read, not a parse).
 */
export type ReportToImport = { parsed: ParseResult } | { header: ReportHeader; parse: () => ParseResult };

/**
 * One report file into one user's reports, uploaded or mailed alike: imported, a duplicate, or kept as a
 * failed import with its reason. Reports are stored one at a time by the one intake thread, so the sums
 * read here are not raced by another import.
 *
 * What a report may take (issue 36, ADR 051), so that no sender crowds out the others:
 * - a mailed report whose mail did not prove its reporter (unauthenticated) is kept apart, within a small
 *   allowance per domain; it never counts against the account's cap, so it never pushes trusted data out;
 * - an authenticated mailed report is bounded per reporting organisation and domain, and per domain, per day;
 * - a trusted report (an upload, or authenticated) that would take the account past its cap makes room:
 *   the oldest reports go first, and the owner is told by an alert, rather than the new report being refused.
 */
export async function importReport(
  tx: Executor,
  userId: number,
  report: ReportToImport,
  file: StoredFile,
): Promise<ImportOutcome> {
  const failed = async (error: string): Promise<ImportOutcome> => ({
    kind: 'failed',
    report: await storeFailedImport(tx, userId, { ...file, error }),
    error,
  });
  if ('header' in report) {
    if (await isDuplicate(tx, userId, report.header, file)) return { kind: 'duplicate' };
    const refusal = await mailedRefusal(tx, userId, report.header, file, 0);
    if (refusal) return failed(refusal);
  }
  const parsed = 'parsed' in report ? report.parsed : report.parse();
  if (!parsed.ok) return failed(parsed.error);
  if ('parsed' in report && (await isDuplicate(tx, userId, parsed.report, file))) return { kind: 'duplicate' };
  const records = parsed.report.records.length;
  const refusal =
    ('header' in report ? await mailedRefusal(tx, userId, parsed.report, file, records) : null) ??
    (file.senderAuthenticated === false ? null : await makeRoom(tx, userId, parsed.report, records));
  if (refusal) return failed(refusal);
  const stored = await storeReport(tx, userId, parsed.report, file);
  return stored ? { kind: 'imported', report: stored } : { kind: 'duplicate' };
}

/** Stored already: a trusted copy, or any copy when this one is unauthenticated (a trusted one replaces an unauthenticated copy). */
async function isDuplicate(
  tx: Executor,
  userId: number,
  report: Pick<ReportHeader, 'orgName' | 'reportId'>,
  file: StoredFile,
): Promise<boolean> {
  const copy = await storedCopy(tx, userId, report);
  return copy !== undefined && (copy.senderAuthenticated !== false || file.senderAuthenticated === false);
}

const count = (x: number) => x.toLocaleString('en-US');
const size = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
const holding = (h: Held) => `${count(h.records)} records and ${size(h.bytes)}`;

/**
 * Why a mailed report may not be stored, or null: checked on its header with `records` 0 (the bytes
 * alone), then again once parsed.
 */
async function mailedRefusal(
  tx: Executor,
  userId: number,
  report: ReportHeader,
  file: StoredFile,
  records: number,
): Promise<string | null> {
  const domain = report.policy.domain;
  const adding = { records, bytes: file.rawSize };
  const over = (h: Held, maxRecords: number, maxBytes: number) =>
    h.records + adding.records > maxRecords || h.bytes + adding.bytes > maxBytes;
  const thisReport = records > 0 ? holding(adding) : size(adding.bytes);
  if (file.senderAuthenticated === false) {
    const held = await heldUnauthenticated(tx, userId, domain);
    if (!over(held, UNAUTHENTICATED_RECORDS_PER_DOMAIN, UNAUTHENTICATED_BYTES_PER_DOMAIN)) return null;
    return (
      `Not stored: its mail did not prove it came from ${report.orgName}, and such reports for ${domain} are kept ` +
      `within ${holding({ records: UNAUTHENTICATED_RECORDS_PER_DOMAIN, bytes: UNAUTHENTICATED_BYTES_PER_DOMAIN })}; ` +
      `they hold ${holding(held)}, and this one has ${thisReport}. Reports proven to come from their reporter are not limited by this.`
    );
  }
  const today = await arrivedToday(tx, userId, domain, report.orgName);
  const dayLimit = (who: string, h: Held, maxRecords: number, maxBytes: number) =>
    `Not stored: ${who} sent ${holding(h)} of reports for ${domain} today, and may store at most ` +
    `${holding({ records: maxRecords, bytes: maxBytes })} a day, so that no sender crowds out the others; this one has ` +
    `${thisReport}. Upload the report to store it anyway.`;
  if (over(today.reporter, REPORTER_RECORDS_PER_DAY, REPORTER_BYTES_PER_DAY))
    return dayLimit(report.orgName, today.reporter, REPORTER_RECORDS_PER_DAY, REPORTER_BYTES_PER_DAY);
  if (over(today.domain, DOMAIN_RECORDS_PER_DAY, DOMAIN_BYTES_PER_DAY))
    return dayLimit('all reporters together', today.domain, DOMAIN_RECORDS_PER_DAY, DOMAIN_BYTES_PER_DAY);
  return null;
}

/**
 * Room in the account's cap for a trusted report: when it would go past DMARC_RECORDS_PER_ACCOUNT, the oldest
 * reports that cover periods before this one's are removed to make room, and the owner is told by one alert
 * kept open. Null when there is room now; the reason when even those would not make enough.
 */
async function makeRoom(
  tx: Executor,
  userId: number,
  report: AggregateReport,
  records: number,
): Promise<string | null> {
  const stored = await countedRecordCount(tx, userId);
  const needed = stored + records - DMARC_RECORDS_PER_ACCOUNT;
  if (needed <= 0) return null;
  const removed = await removeOldestReports(tx, userId, needed, report.dateBegin);
  if (!removed)
    return (
      `Your account keeps at most ${count(DMARC_RECORDS_PER_ACCOUNT)} DMARC report records and holds ${count(stored)}; ` +
      `this report has ${count(records)}, and the reports older than it hold too few to make room. Delete reports to make room, then upload it again.`
    );
  const upTo = utcDay(removed.latestBegin);
  await keepConditionAlert(tx, {
    userId,
    conditionKey: 'dmarc-room',
    type: 'authentication_failure',
    severity: 'info',
    title: 'Old DMARC reports removed to make room',
    message:
      `Your account keeps at most ${count(DMARC_RECORDS_PER_ACCOUNT)} DMARC report records. To store newer reports, ` +
      `the oldest were removed, most recently ${count(removed.reports)} (${count(removed.records)} records) covering periods up to ${upTo}.`,
    metadata: { value: upTo, reports: removed.reports, records: removed.records },
  });
  return null;
}
