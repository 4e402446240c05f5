import { addDays, dayStart } from '@contracts/utc-day';
import { and, desc, eq, gte, lt, sql, type SQL } from 'drizzle-orm';
import {
  DmarcReport,
  REPORT_DETAIL_RECORDS,
  REPORT_DOMAINS_MAX,
  type DmarcReportDetail,
  type DmarcReportDomainList,
  type DmarcReportList,
  type ReportsQuery,
} from '@contracts/dmarc';
import type { Db, Executor } from '../platform/db/client';
import {
  dmarcReceivedFiles,
  dmarcRecords,
  dmarcReporterAlerts,
  dmarcReports,
  dmarcSourceDays,
} from '../platform/db/schema/index';
import { passesDmarc, type AggregateRecord, type AggregateReport } from './aggregate-report';
import { percentOf } from '@contracts/figures';
import { UPLOAD_LIMIT_BYTES, type UploadedFile } from './unpack';

type ReportRow = typeof dmarcReports.$inferSelect;

export interface StoredFile {
  fileName: string;
  rawSize: number;
  /** Mailed reports: whether the mail proved it came from the reporter (report-sender.ts). Uploads: null. */
  senderAuthenticated?: boolean | null;
  /** When it did not: why, in words (report-sender.ts unauthenticatedReason). */
  unauthenticatedReason?: string | null;
  /** The file as it was received (an upload, or a mail's attachment), kept if the report in it cannot be read (storeFailedImport). */
  received?: UploadedFile;
}

/** The most of a received file that is kept: the upload limit, which every upload is within; a mail's larger attachment is not kept (ADR 017). */
export const RECEIVED_KEPT_BYTES = UPLOAD_LIMIT_BYTES;

/**
 * The reports the analytics count: imported, and not unauthenticated. Anyone can mail a report, so one whose
 * mail did not prove its reporter is kept apart (listed, but never in the figures, the sources or the
 * reporters' health), or a stranger could write a domain's compliance.
 */
export const countedReport = sql`(${dmarcReports.status} = 'imported' and ${dmarcReports.senderAuthenticated} is not false)`;

export function toDmarcReport(row: ReportRow): DmarcReport {
  return DmarcReport.parse({
    id: row.id,
    status: row.status,
    error: row.error,
    fileName: row.fileName,
    rawSize: row.rawSize,
    domain: row.domain,
    schema: row.schema,
    version: row.version,
    orgName: row.orgName,
    reportId: row.reportId,
    email: row.email,
    dateBegin: row.dateBegin?.toISOString() ?? null,
    dateEnd: row.dateEnd?.toISOString() ?? null,
    generator: row.generator,
    policyPublished:
      row.status === 'imported'
        ? {
            p: row.p,
            sp: row.sp,
            np: row.np,
            adkim: row.adkim,
            aspf: row.aspf,
            pct: row.pct,
            fo: row.fo,
            testing: row.testing,
            discoveryMethod: row.discoveryMethod,
          }
        : null,
    recordCount: row.recordCount,
    messageCount: row.messageCount,
    passCount: row.passCount,
    compliance: percentOf(row.passCount, row.messageCount, 2),
    senderAuthenticated: row.senderAuthenticated,
    unauthenticatedReason: row.unauthenticatedReason,
    ...(row.warnings && { warnings: row.warnings }),
    ...(row.receivedFileId !== null && { rawKept: true }),
    createdAt: row.createdAt.toISOString(),
  });
}

/** A report's sums, added up as its records are stored. */
export class ReportTotals {
  records = 0;
  messages = 0;
  passes = 0;

  add(records: AggregateRecord[]): void {
    this.records += records.length;
    for (const record of records) {
      this.messages += record.count;
      if (passesDmarc(record)) this.passes += record.count;
    }
  }
}

/**
 * Starts storing a report: its row, without records yet (beginReport, then insertRecords a batch at a time,
 * then finishReport, all in the caller's one transaction, so a report is never seen half stored). A report
 * this user already has (same reporter, same report id) is left alone: undefined. Except that a trusted
 * report (uploaded, or mailed by its reporter) replaces a mailed one whose sender was not authenticated: a
 * forger who sends a report id first must not shadow the real one.
 */
export async function beginReport(
  tx: Executor,
  userId: number,
  report: Omit<AggregateReport, 'records'>,
  file: StoredFile,
): Promise<number | undefined> {
  const trusted = file.senderAuthenticated !== false;
  const insert = () =>
    tx
      .insert(dmarcReports)
      .values({
        userId,
        status: 'imported',
        fileName: file.fileName.slice(0, 255),
        rawSize: file.rawSize,
        senderAuthenticated: file.senderAuthenticated ?? null,
        unauthenticatedReason: file.unauthenticatedReason ?? null,
        domain: report.policy.domain,
        schema: report.schema,
        version: report.version,
        orgName: report.orgName,
        reportId: report.reportId,
        email: report.email,
        dateBegin: report.dateBegin,
        dateEnd: report.dateEnd,
        generator: report.generator,
        discoveryMethod: report.policy.discoveryMethod,
        adkim: report.policy.adkim,
        aspf: report.policy.aspf,
        p: report.policy.p,
        sp: report.policy.sp,
        np: report.policy.np,
        pct: report.policy.pct,
        fo: report.policy.fo,
        testing: report.policy.testing,
        recordCount: 0,
        messageCount: 0,
        passCount: 0,
      })
      .onConflictDoNothing({ target: [dmarcReports.userId, dmarcReports.orgName, dmarcReports.reportId] })
      .returning({ id: dmarcReports.id });
  let [row] = await insert();
  // Taken: by an unauthenticated copy, a trusted report takes its place; otherwise it is a duplicate.
  if (!row && trusted && (await dropUnauthenticatedCopy(tx, userId, report))) [row] = await insert();
  return row?.id;
}

/**
 * The report's records are all stored: its sums and what was recovered to read it (`warnings`), and its records
 * added to the analytics' sums once.
 */
export async function finishReport(
  tx: Executor,
  reportId: number,
  totals: ReportTotals,
  warnings: string[],
): Promise<DmarcReport> {
  const [row] = await tx
    .update(dmarcReports)
    .set({
      recordCount: totals.records,
      messageCount: totals.messages,
      passCount: totals.passes,
      warnings: warnings.length > 0 ? warnings : null,
    })
    .where(eq(dmarcReports.id, reportId))
    .returning();
  if (totals.records > 0) await addToSourceDays(tx, reportId, 1);
  return toDmarcReport(row);
}

/** The user's copy of a report: the same reporter and report id (the key a report is stored once under). */
export const sameReport = (userId: number, report: { orgName: string; reportId: string }) =>
  and(
    eq(dmarcReports.userId, userId),
    eq(dmarcReports.orgName, report.orgName),
    eq(dmarcReports.reportId, report.reportId),
  );

/** Deletes the user's unauthenticated copy of this report (and its sums), if there is one. */
async function dropUnauthenticatedCopy(
  tx: Executor,
  userId: number,
  report: Pick<AggregateReport, 'orgName' | 'reportId'>,
): Promise<boolean> {
  const [copy] = await tx
    .select({ id: dmarcReports.id })
    .from(dmarcReports)
    .where(and(sameReport(userId, report), eq(dmarcReports.senderAuthenticated, false)))
    .for('update');
  if (!copy) return false;
  await deleteReportRows(tx, copy.id);
  return true;
}

/**
 * A batch of a report's records in one statement: one array parameter per column, which PostgreSQL unnests into
 * rows. Measured (ADR 059): a fifth to a third less PostgreSQL CPU than unpacking one JSON array (jsonb_to_recordset),
 * a little more in node, less in all; both far below a multi-row VALUES with 11 parameters a row.
 */
export async function insertRecords(tx: Executor, reportId: number, records: AggregateRecord[]): Promise<void> {
  // sql.param: the array is one parameter, not a list of them.
  const column = (value: (record: AggregateRecord) => unknown) => sql.param(records.map(value));
  const json = (value: unknown) => (value === null ? null : JSON.stringify(value));
  await tx.execute(sql`
    insert into ${dmarcRecords} (report_id, source_ip, count, disposition, dkim_result, spf_result, header_from, envelope_from, envelope_to, dkim_auth, spf_auth, reason)
    select ${reportId}, * from unnest(
      ${column((r) => r.sourceIp)}::text[], ${column((r) => r.count)}::integer[], ${column((r) => r.disposition)}::text[],
      ${column((r) => r.dkimResult)}::text[], ${column((r) => r.spfResult)}::text[], ${column((r) => r.headerFrom)}::text[],
      ${column((r) => r.envelopeFrom)}::text[], ${column((r) => r.envelopeTo)}::text[],
      ${column((r) => json(r.dkimAuth))}::jsonb[], ${column((r) => json(r.spfAuth))}::jsonb[], ${column((r) => json(r.reason))}::jsonb[])`);
}

/**
 * A file that did not import is kept, with its error, so the user sees what went wrong (and, if it was mailed,
 * whether its sender proved who it was); with the file as received (`file.received`), when given, so that nothing
 * the user was sent disappears.
 */
export async function storeFailedImport(
  ex: Executor,
  userId: number,
  file: StoredFile & { error: string },
): Promise<DmarcReport> {
  const [row] = await ex
    .insert(dmarcReports)
    .values({
      userId,
      status: 'failed',
      error: file.error,
      fileName: file.fileName.slice(0, 255),
      rawSize: file.rawSize,
      senderAuthenticated: file.senderAuthenticated ?? null,
      unauthenticatedReason: file.unauthenticatedReason ?? null,
      receivedFileId: file.received ? await keepReceived(ex, userId, file.received) : null,
    })
    .returning();
  return toDmarcReport(row);
}

/** The received files kept in the import under way, per user: one row however many of a file's reports fail. */
const kept = new WeakMap<UploadedFile, Map<number, number>>();

/** The id of the user's kept copy of `received`; null when it is too large to keep. */
async function keepReceived(ex: Executor, userId: number, received: UploadedFile): Promise<number | null> {
  if (received.data.length > RECEIVED_KEPT_BYTES) return null;
  const keptFor = kept.get(received) ?? new Map<number, number>();
  kept.set(received, keptFor);
  const id = keptFor.get(userId);
  if (id !== undefined) return id;
  const [row] = await ex
    .insert(dmarcReceivedFiles)
    .values({ userId, fileName: received.fileName.slice(0, 255), data: Buffer.from(received.data) })
    .returning({ id: dmarcReceivedFiles.id });
  keptFor.set(userId, row.id);
  return row.id;
}

/** The file a failed import of the user's came in, as received; undefined when it is not theirs or was not kept. */
export async function receivedFileOf(
  db: Db,
  userId: number,
  reportId: number,
): Promise<{ fileName: string; data: Buffer } | undefined> {
  const [file] = await db
    .select({ fileName: dmarcReceivedFiles.fileName, data: dmarcReceivedFiles.data })
    .from(dmarcReports)
    .innerJoin(dmarcReceivedFiles, eq(dmarcReceivedFiles.id, dmarcReports.receivedFileId))
    .where(and(eq(dmarcReports.id, reportId), eq(dmarcReports.userId, userId)));
  return file;
}

export async function listReports(db: Db, userId: number, query: ReportsQuery): Promise<DmarcReportList> {
  const where = reportsWhere(userId, query);
  const [{ total }] = await db
    .select({ total: sql<number>`count(*)::int` })
    .from(dmarcReports)
    .where(where);
  const rows = await reportsPage(db, userId, query);
  return { items: rows.map(toDmarcReport), total, page: query.page, pageSize: query.pageSize };
}

function reportsWhere(userId: number, query: ReportsQuery): SQL | undefined {
  const filters: SQL[] = [eq(dmarcReports.userId, userId)];
  if (query.domain) filters.push(eq(dmarcReports.domain, query.domain));
  if (query.status) filters.push(eq(dmarcReports.status, query.status));
  if (query.sender === 'unauthenticated') filters.push(eq(dmarcReports.senderAuthenticated, false));
  if (query.sender === 'authenticated') filters.push(sql`${dmarcReports.senderAuthenticated} is not false`);
  if (query.from) filters.push(gte(dmarcReports.dateBegin, dayStart(query.from)));
  if (query.to) filters.push(lt(dmarcReports.dateBegin, dayStart(addDays(query.to, 1))));
  return and(...filters);
}

/** One page of the list, newest first: read in the order of dmarc_reports_user_listed_idx, so a page costs its offset, not the user's whole history. */
export function reportsPage(db: Db, userId: number, query: ReportsQuery) {
  return (
    db
      .select()
      .from(dmarcReports)
      .where(reportsWhere(userId, query))
      // Failed imports have no report period: they sort by when they were uploaded.
      .orderBy(desc(sql`coalesce(${dmarcReports.dateBegin}, ${dmarcReports.createdAt})`), desc(dmarcReports.id))
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize)
  );
}

/** One of the user's reports with its busiest records; undefined when it is not theirs. */
export async function getReport(db: Db, userId: number, id: number): Promise<DmarcReportDetail | undefined> {
  const [row] = await db
    .select()
    .from(dmarcReports)
    .where(and(eq(dmarcReports.id, id), eq(dmarcReports.userId, userId)));
  if (!row) return undefined;
  const records = await db
    .select({
      sourceIp: dmarcRecords.sourceIp,
      count: dmarcRecords.count,
      disposition: dmarcRecords.disposition,
      dkimResult: dmarcRecords.dkimResult,
      spfResult: dmarcRecords.spfResult,
      headerFrom: dmarcRecords.headerFrom,
      envelopeFrom: dmarcRecords.envelopeFrom,
      dkimAuth: dmarcRecords.dkimAuth,
      spfAuth: dmarcRecords.spfAuth,
    })
    .from(dmarcRecords)
    .where(eq(dmarcRecords.reportId, id))
    .orderBy(desc(dmarcRecords.count), dmarcRecords.id)
    .limit(REPORT_DETAIL_RECORDS);
  return {
    ...toDmarcReport(row),
    records: records.map((r) => ({
      ...r,
      dkimAuth: r.dkimAuth.map(({ domain, selector, result, humanResult }) => ({
        domain,
        selector,
        result,
        humanResult,
      })),
      spfAuth: r.spfAuth.map(({ domain, scope, result, humanResult }) => ({ domain, scope, result, humanResult })),
    })),
  };
}

/** The domains of the user's imported reports, with how many there are and the latest period, most recent first. */
export async function listReportDomains(db: Db, userId: number): Promise<DmarcReportDomainList> {
  const lastEnd = sql<Date | null>`max(${dmarcReports.dateEnd})`;
  const rows = await db
    .select({
      domain: sql<string>`${dmarcReports.domain}`,
      reports: sql<number>`count(*)::int`,
      messages: sql<number>`coalesce(sum(${dmarcReports.messageCount}), 0)::float8`,
      lastReportAt: lastEnd,
    })
    .from(dmarcReports)
    .where(and(eq(dmarcReports.userId, userId), countedReport, sql`${dmarcReports.domain} is not null`))
    .groupBy(dmarcReports.domain)
    .orderBy(sql`${lastEnd} desc nulls last`, dmarcReports.domain)
    .limit(REPORT_DOMAINS_MAX);
  return {
    items: rows.map((row) => ({
      domain: row.domain,
      reports: row.reports,
      messages: row.messages,
      lastReportAt: row.lastReportAt ? new Date(row.lastReportAt).toISOString() : null,
    })),
  };
}

/** Deletes one of the user's reports and its records, and takes them out of the analytics; false when it is not theirs. */
export async function deleteReport(db: Db, userId: number, id: number): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [report] = await tx
      .select({ id: dmarcReports.id })
      .from(dmarcReports)
      .where(and(eq(dmarcReports.id, id), eq(dmarcReports.userId, userId)))
      .for('update');
    if (!report) return false;
    await deleteReportRows(tx, id);
    return true;
  });
}

/** Takes a report out of the analytics, then deletes it (its records cascade), and its received file once no other failed import came in it. */
export async function deleteReportRows(tx: Executor, id: number): Promise<void> {
  await addToSourceDays(tx, id, -1);
  const [deleted] = await tx
    .delete(dmarcReports)
    .where(eq(dmarcReports.id, id))
    .returning({ receivedFileId: dmarcReports.receivedFileId });
  const fileId = deleted?.receivedFileId;
  if (fileId == null) return;
  const [other] = await tx
    .select({ id: dmarcReports.id })
    .from(dmarcReports)
    .where(eq(dmarcReports.receivedFileId, fileId))
    .limit(1);
  if (!other) await tx.delete(dmarcReceivedFiles).where(eq(dmarcReceivedFiles.id, fileId));
}

/**
 * Adds (sign 1) or takes away (sign -1) one report's records in dmarc_source_days, the per day,
 * source and disposition sums the analytics read. Increments, so reports stored and deleted side by
 * side add up; a row that falls to zero goes. An unauthenticated report is never in them (countedReport).
 */
async function addToSourceDays(tx: Executor, reportId: number, sign: 1 | -1): Promise<void> {
  // The negation of passesDmarc (aggregate-report.ts).
  const failed = sql`d.dkim_result <> 'pass' and d.spf_result <> 'pass' and d.disposition <> 'pass'`;
  const anyRawPass = sql`(d.dkim_auth @> '[{"result":"pass"}]' or d.spf_auth @> '[{"result":"pass"}]')`;
  const sum = (condition?: SQL) =>
    condition ? sql`${sign} * coalesce(sum(d.count) filter (where ${condition}), 0)` : sql`${sign} * sum(d.count)`;
  await tx.execute(sql`
    insert into ${dmarcSourceDays} as s (user_id, day, domain, source_ip, disposition, total, spf_aligned, dkim_aligned, failed, failed_misaligned)
    select r.user_id, (r.date_begin at time zone 'UTC')::date, r.domain, d.source_ip, d.disposition,
      ${sum()}, ${sum(sql`d.spf_result = 'pass'`)}, ${sum(sql`d.dkim_result = 'pass'`)}, ${sum(failed)}, ${sum(sql`${failed} and ${anyRawPass}`)}
    from ${dmarcRecords} d join ${dmarcReports} r on r.id = d.report_id
    where r.id = ${reportId} and r.domain is not null and r.date_begin is not null and r.sender_authenticated is not false
    group by 1, 2, 3, 4, 5
    on conflict (user_id, day, domain, source_ip, disposition) do update set
      total = s.total + excluded.total, spf_aligned = s.spf_aligned + excluded.spf_aligned, dkim_aligned = s.dkim_aligned + excluded.dkim_aligned,
      failed = s.failed + excluded.failed, failed_misaligned = s.failed_misaligned + excluded.failed_misaligned`);
  if (sign < 0) {
    await tx.execute(sql`
      delete from ${dmarcSourceDays} s using ${dmarcReports} r
      where r.id = ${reportId} and s.user_id = r.user_id and s.day = (r.date_begin at time zone 'UTC')::date and s.domain = r.domain and s.total <= 0`);
  }
}

/**
 * Records that a reporter's silence after `lastReportAt` is being alerted, once per silence: false
 * when this one was already, true for a new one (the first, or after the reporter resumed).
 */
export async function claimReporterAlert(
  ex: Executor,
  reporter: { userId: number; domain: string; orgName: string; lastReportAt: Date },
): Promise<boolean> {
  const [claimed] = await ex
    .insert(dmarcReporterAlerts)
    .values({
      userId: reporter.userId,
      domain: reporter.domain,
      orgName: reporter.orgName,
      lastReportAt: reporter.lastReportAt,
    })
    .onConflictDoUpdate({
      target: [dmarcReporterAlerts.userId, dmarcReporterAlerts.domain, dmarcReporterAlerts.orgName],
      set: { lastReportAt: reporter.lastReportAt },
      setWhere: sql`${dmarcReporterAlerts.lastReportAt} <> excluded.last_report_at`,
    })
    .returning();
  return claimed !== undefined;
}

/** What the user's DMARC reports take in the database: counts, and the size of their rows (pg_column_size). */
export async function dmarcStorage(
  db: Db,
  userId: number,
): Promise<{ reports: number; records: number; bytes: number }> {
  const result = await db.execute<{ reports: number; records: number; bytes: number }>(sql`
    select (select count(*) from ${dmarcReports} where user_id = ${userId})::float8 as reports,
      (select coalesce(sum(record_count), 0) from ${dmarcReports} where user_id = ${userId})::float8 as records,
      (select coalesce(sum(pg_column_size(r.*)), 0) from ${dmarcReports} r where r.user_id = ${userId})::float8
        + (select coalesce(sum(pg_column_size(d.*)), 0) from ${dmarcRecords} d join ${dmarcReports} r on r.id = d.report_id where r.user_id = ${userId})::float8
        + (select coalesce(sum(pg_column_size(s.*)), 0) from ${dmarcSourceDays} s where s.user_id = ${userId})::float8 as bytes`);
  return result.rows[0];
}
