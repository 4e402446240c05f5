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
import type { AggregateRecord } from './aggregate-report';
import {
  beginReport,
  finishReport,
  insertRecords,
  ReportTotals,
  storeFailedImport,
  type StoredFile,
} from './dmarc.repo';
import { streamAggregateReport, type ReportHeader, type ReportInput } from './parse-aggregate';
import {
  arrivedToday,
  countedRecordCount,
  heldUnauthenticated,
  removeOldestReports,
  storedCopy,
  type Held,
  type Removed,
} from './report-room.repo';

/** What became of one report file for one user. */
export type ImportOutcome =
  | { kind: 'imported'; report: DmarcReport }
  | { kind: 'duplicate' }
  | { kind: 'failed'; report: DmarcReport; error: string };

/**
 * A report file to import, or why it could not be read (unpack.ts). A mailed one comes with its header, read
 * without its records, so that a forged report over its allowance costs a header read, not a parse. `warning`:
 * what was recovered to unpack it, kept with the report.
 */
export type ReportToImport = { error: string } | { bytes: ReportInput; header?: ReportHeader; warning?: string };

/**
 * One report file into one user's reports, uploaded or mailed alike: imported, a duplicate, or kept as a
 * failed import with its reason. Its records are read and stored a batch at a time (a report of any size is
 * never held whole), inside a savepoint of the caller's transaction, so a report that fails or is refused
 * part-way leaves none of its records. Reports are stored one at a time by the one intake thread, so the sums
 * read here are not raced by another import.
 *
 * What a report may take (issue 36, ADR 051), so that no sender crowds out the others:
 * - a mailed report whose mail did not prove its reporter (unauthenticated) is kept apart, within a small
 *   allowance per domain; it never counts against the account's cap, so it never pushes trusted data out;
 * - an authenticated mailed report is bounded per reporting organisation and domain, and per domain, per day;
 * - a trusted report (an upload, or authenticated) that would take the account past its cap makes room:
 *   the oldest reports go first, and the owner is told by an alert, rather than the new report being refused.
 * The record count is known only once the report is read: the bounds are checked as it grows, and once one
 * is passed nothing more is stored, the rest is only counted (for the reason's figures) and the report refused.
 *
 * A report that cannot be read keeps the file it came in (`file.received`, ADR 017), so the owner can download it;
 * one refused by a bound does not: it was read, and the bound is there so that it does not take the room.
 */
export async function importReport(
  tx: Executor,
  userId: number,
  report: ReportToImport,
  file: StoredFile,
): Promise<ImportOutcome> {
  const failed = async (error: string, unread: boolean): Promise<ImportOutcome> => ({
    kind: 'failed',
    report: await storeFailedImport(tx, userId, { ...file, error, received: unread ? file.received : undefined }),
    error,
  });
  if ('error' in report) return failed(report.error, true);
  // A mailed report's header was read already: its duplicate check and bounds are made once, here.
  let mailed: MailedBound | undefined;
  if (report.header) {
    if (await isDuplicate(tx, userId, report.header, file)) return { kind: 'duplicate' };
    mailed = await mailedBounds(tx, userId, report.header, file);
    const refusal = mailed(0);
    if (refusal) return failed(refusal, false);
  }
  try {
    const stored = await tx.transaction((savepoint) => storeStreamed(savepoint, userId, report, file, mailed));
    return stored ? { kind: 'imported', report: stored } : { kind: 'duplicate' };
  } catch (error) {
    if (error instanceof Refused) return failed(error.message, error.unread);
    throw error;
  }
}

/** Thrown to roll the report's savepoint back: it is kept as a failed import with this reason. unread: it could not be read. */
class Refused extends Error {
  constructor(
    message: string,
    readonly unread: boolean,
  ) {
    super(message);
  }
}

/**
 * The report read and stored a batch at a time; undefined for a duplicate. `mailed`: the bounds of a mailed report
 * whose header was checked before (importReport), so neither its duplicate check nor its sums are read again.
 */
async function storeStreamed(
  tx: Executor,
  userId: number,
  report: { bytes: ReportInput; warning?: string },
  file: StoredFile,
  mailed?: MailedBound,
): Promise<DmarcReport | undefined> {
  const totals = new ReportTotals();
  let reportId: number | undefined;
  let bounds: Bounds | undefined;
  let refused = false;
  const read = await streamAggregateReport(report.bytes, {
    async header(header) {
      if (!mailed && (await isDuplicate(tx, userId, header, file))) return false;
      bounds = await boundsOf(tx, userId, header, file, mailed);
      reportId = await beginReport(tx, userId, header, file);
      return reportId !== undefined;
    },
    async records(batch: AggregateRecord[]) {
      refused ||= !(await bounds!.admit(totals.records + batch.length));
      if (refused) totals.records += batch.length;
      else {
        await insertRecords(tx, reportId!, batch);
        totals.add(batch);
      }
    },
  });
  if (!read.ok) throw new Refused(read.error, true);
  if (!read.wanted) return undefined;
  if (refused) throw new Refused(bounds!.reason(totals.records), false);
  await bounds!.done();
  const warnings = [report.warning, ...(read.warnings ?? [])].filter((w) => w !== undefined);
  return finishReport(tx, reportId!, totals, warnings);
}

/** A report's bounds as its records are stored: whether `records` in all may be (making room when needed). */
interface Bounds {
  /** Whether the report may hold `records` records; once false, a bound was passed (reason gives the words). */
  admit(records: number): Promise<boolean>;
  /** Why a report of `records` records in all is refused. */
  reason(records: number): string;
  /** The report is stored: the owner is told of what was removed to make room. */
  done(): Promise<void>;
}

async function boundsOf(
  tx: Executor,
  userId: number,
  report: ReportHeader,
  file: StoredFile,
  checked?: MailedBound,
): Promise<Bounds> {
  // Uploads are not bound but by the account's cap: the user chose to store them.
  const mailed =
    checked ?? (typeof file.senderAuthenticated === 'boolean' ? await mailedBounds(tx, userId, report, file) : null);
  const room = file.senderAuthenticated === false ? null : await accountRoom(tx, userId, report);
  let passed: ((records: number) => string | null) | null = null;
  return {
    async admit(records) {
      if (mailed?.(records)) passed = mailed;
      else if (room && !(await room.makeFor(records))) passed = room.refusal;
      return passed === null;
    },
    reason: (records) => passed!(records)!,
    done: async () => room?.tell(),
  };
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

/** Why a mailed report of `records` records (0: its bytes alone, checked on its header) may not be stored, or null. */
type MailedBound = (records: number) => string | null;

/** What a mailed report may hold. The sums it is checked against are read once, before the report is stored. */
async function mailedBounds(
  tx: Executor,
  userId: number,
  report: ReportHeader,
  file: StoredFile,
): Promise<MailedBound> {
  const domain = report.policy.domain;
  const over = (h: Held, records: number, maxRecords: number, maxBytes: number) =>
    h.records + records > maxRecords || h.bytes + file.rawSize > maxBytes;
  const thisReport = (records: number) =>
    records > 0 ? holding({ records, bytes: file.rawSize }) : size(file.rawSize);
  if (file.senderAuthenticated === false) {
    const held = await heldUnauthenticated(tx, userId, domain);
    return (records) =>
      !over(held, records, UNAUTHENTICATED_RECORDS_PER_DOMAIN, UNAUTHENTICATED_BYTES_PER_DOMAIN)
        ? null
        : `Not stored: its mail did not prove it came from ${report.orgName}, and such reports for ${domain} are kept ` +
          `within ${holding({ records: UNAUTHENTICATED_RECORDS_PER_DOMAIN, bytes: UNAUTHENTICATED_BYTES_PER_DOMAIN })}; ` +
          `they hold ${holding(held)}, and this one has ${thisReport(records)}. Reports proven to come from their reporter are not limited by this.`;
  }
  const today = await arrivedToday(tx, userId, domain, report.orgName);
  const dayLimit = (who: string, h: Held, maxRecords: number, maxBytes: number, records: number) =>
    `Not stored: ${who} sent ${holding(h)} of reports for ${domain} today, and may store at most ` +
    `${holding({ records: maxRecords, bytes: maxBytes })} a day, so that no sender crowds out the others; this one has ` +
    `${thisReport(records)}. Upload the report to store it anyway.`;
  return (records) => {
    if (over(today.reporter, records, REPORTER_RECORDS_PER_DAY, REPORTER_BYTES_PER_DAY))
      return dayLimit(report.orgName, today.reporter, REPORTER_RECORDS_PER_DAY, REPORTER_BYTES_PER_DAY, records);
    if (over(today.domain, records, DOMAIN_RECORDS_PER_DAY, DOMAIN_BYTES_PER_DAY))
      return dayLimit('all reporters together', today.domain, DOMAIN_RECORDS_PER_DAY, DOMAIN_BYTES_PER_DAY, records);
    return null;
  };
}

/**
 * Room in the account's cap for a trusted report, made as it grows: when it would go past
 * DMARC_RECORDS_PER_ACCOUNT, the oldest reports that cover periods before this one's are removed to make
 * room (makeFor), and once it is stored the owner is told by one alert kept open (tell). makeFor is false
 * when even all of those would not make enough (refusal gives the words).
 */
async function accountRoom(tx: Executor, userId: number, report: ReportHeader) {
  const stored = await countedRecordCount(tx, userId);
  const removed: Removed = { reports: 0, records: 0, latestBegin: report.dateBegin };
  return {
    async makeFor(records: number): Promise<boolean> {
      const needed = stored - removed.records + records - DMARC_RECORDS_PER_ACCOUNT;
      if (needed <= 0) return true;
      const more = await removeOldestReports(tx, userId, needed, report.dateBegin);
      if (!more) return false;
      removed.reports += more.reports;
      removed.records += more.records;
      removed.latestBegin = more.latestBegin;
      return true;
    },
    refusal: (records: number) =>
      `Your account keeps at most ${count(DMARC_RECORDS_PER_ACCOUNT)} DMARC report records and holds ${count(stored)}; ` +
      `this report has ${count(records)}, and the reports older than it hold too few to make room. Delete reports to make room, then upload it again.`,
    async tell(): Promise<void> {
      if (removed.reports === 0) return;
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
    },
  };
}
