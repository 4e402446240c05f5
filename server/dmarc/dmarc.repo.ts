import { and, desc, eq, gte, lt, sql, type SQL } from 'drizzle-orm';
import { DmarcReport, REPORT_DETAIL_RECORDS, type DmarcReportDetail, type DmarcReportList, type ReportsQuery } from '@contracts/dmarc';
import type { Db, Executor } from '../platform/db/client';
import { dmarcRecords, dmarcReporterAlerts, dmarcReports } from '../platform/db/schema/index';
import { passesDmarc, type AggregateRecord, type AggregateReport } from './aggregate-report';
import { percentOf } from '@contracts/figures';

type ReportRow = typeof dmarcReports.$inferSelect;

export interface StoredFile {
  fileName: string;
  rawSize: number;
}

export function toDmarcReport(row: ReportRow): DmarcReport {
  return DmarcReport.parse({
    id: row.id,
    status: row.status,
    error: row.error,
    fileName: row.fileName,
    rawSize: row.rawSize,
    domain: row.domain,
    orgName: row.orgName,
    reportId: row.reportId,
    email: row.email,
    dateBegin: row.dateBegin?.toISOString() ?? null,
    dateEnd: row.dateEnd?.toISOString() ?? null,
    policyPublished:
      row.status === 'imported' ? { p: row.p, sp: row.sp, np: row.np, adkim: row.adkim, aspf: row.aspf, pct: row.pct, fo: row.fo, testing: row.testing } : null,
    recordCount: row.recordCount,
    messageCount: row.messageCount,
    passCount: row.passCount,
    compliance: percentOf(row.passCount, row.messageCount, 2),
    createdAt: row.createdAt.toISOString(),
  });
}

/**
 * Stores a parsed report and all its records in one transaction, so a report is never half
 * stored. A report this user already has (same reporter, same report id) is left alone: undefined.
 */
export async function storeReport(db: Db, userId: number, report: AggregateReport, file: StoredFile): Promise<DmarcReport | undefined> {
  let messageCount = 0;
  let passCount = 0;
  for (const record of report.records) {
    messageCount += record.count;
    if (passesDmarc(record)) passCount += record.count;
  }
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(dmarcReports)
      .values({
        userId,
        status: 'imported',
        fileName: file.fileName.slice(0, 255),
        rawSize: file.rawSize,
        domain: report.policy.domain,
        orgName: report.orgName,
        reportId: report.reportId,
        email: report.email,
        dateBegin: report.dateBegin,
        dateEnd: report.dateEnd,
        adkim: report.policy.adkim,
        aspf: report.policy.aspf,
        p: report.policy.p,
        sp: report.policy.sp,
        np: report.policy.np,
        pct: report.policy.pct,
        fo: report.policy.fo,
        testing: report.policy.testing,
        recordCount: report.records.length,
        messageCount,
        passCount,
      })
      .onConflictDoNothing({ target: [dmarcReports.userId, dmarcReports.orgName, dmarcReports.reportId] })
      .returning();
    if (!row) return undefined;
    if (report.records.length > 0) await insertRecords(tx, row.id, report.records);
    return toDmarcReport(row);
  });
}

/**
 * All records in one statement with one parameter: PostgreSQL unpacks the JSON array itself.
 * Measured on the 2,286-record fixture: several times faster than a multi-row VALUES insert with
 * 11 bind parameters a row (see npm run bench:dmarc).
 */
async function insertRecords(tx: Executor, reportId: number, records: AggregateRecord[]): Promise<void> {
  await tx.execute(sql`
    insert into ${dmarcRecords} (report_id, source_ip, count, disposition, dkim_result, spf_result, header_from, envelope_from, envelope_to, dkim_auth, spf_auth, reason)
    select ${reportId}, r."sourceIp", r.count, r.disposition, r."dkimResult", r."spfResult", r."headerFrom", r."envelopeFrom", r."envelopeTo", r."dkimAuth", r."spfAuth", r.reason
    from jsonb_to_recordset(${JSON.stringify(records)}::jsonb) as r(
      "sourceIp" text, count integer, disposition text, "dkimResult" text, "spfResult" text, "headerFrom" text,
      "envelopeFrom" text, "envelopeTo" text, "dkimAuth" jsonb, "spfAuth" jsonb, reason jsonb)`);
}

/** A file that did not import is kept, with its error, so the user sees what went wrong. */
export async function storeFailedImport(ex: Executor, userId: number, file: StoredFile & { error: string }): Promise<DmarcReport> {
  const [row] = await ex
    .insert(dmarcReports)
    .values({ userId, status: 'failed', error: file.error, fileName: file.fileName.slice(0, 255), rawSize: file.rawSize })
    .returning();
  return toDmarcReport(row);
}

const DAY_MS = 24 * 3600 * 1000;

export async function listReports(db: Db, userId: number, query: ReportsQuery): Promise<DmarcReportList> {
  const filters: SQL[] = [eq(dmarcReports.userId, userId)];
  if (query.domain) filters.push(eq(dmarcReports.domain, query.domain));
  if (query.status) filters.push(eq(dmarcReports.status, query.status));
  if (query.from) filters.push(gte(dmarcReports.dateBegin, new Date(`${query.from}T00:00:00Z`)));
  if (query.to) filters.push(lt(dmarcReports.dateBegin, new Date(Date.parse(`${query.to}T00:00:00Z`) + DAY_MS)));
  const where = and(...filters);
  const [{ total }] = await db
    .select({ total: sql<number>`count(*)::int` })
    .from(dmarcReports)
    .where(where);
  const rows = await db
    .select()
    .from(dmarcReports)
    .where(where)
    // Failed imports have no report period: they sort by when they were uploaded.
    .orderBy(desc(sql`coalesce(${dmarcReports.dateBegin}, ${dmarcReports.createdAt})`), desc(dmarcReports.id))
    .limit(query.pageSize)
    .offset((query.page - 1) * query.pageSize);
  return { items: rows.map(toDmarcReport), total, page: query.page, pageSize: query.pageSize };
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
      dkimAuth: r.dkimAuth.map(({ domain, selector, result }) => ({ domain, selector, result })),
      spfAuth: r.spfAuth.map(({ domain, scope, result }) => ({ domain, scope, result })),
    })),
  };
}

/** Deletes one of the user's reports and its records; false when it is not theirs. */
export async function deleteReport(db: Db, userId: number, id: number): Promise<boolean> {
  const rows = await db
    .delete(dmarcReports)
    .where(and(eq(dmarcReports.id, id), eq(dmarcReports.userId, userId)))
    .returning({ id: dmarcReports.id });
  return rows.length > 0;
}

/**
 * Records that a reporter's silence after `lastReportAt` is being alerted, once per silence: false
 * when this one was already, true for a new one (the first, or after the reporter resumed).
 */
export async function claimReporterAlert(ex: Executor, reporter: { userId: number; domain: string; orgName: string; lastReportAt: Date }): Promise<boolean> {
  const [claimed] = await ex
    .insert(dmarcReporterAlerts)
    .values({ userId: reporter.userId, domain: reporter.domain, orgName: reporter.orgName, lastReportAt: reporter.lastReportAt })
    .onConflictDoUpdate({
      target: [dmarcReporterAlerts.userId, dmarcReporterAlerts.domain, dmarcReporterAlerts.orgName],
      set: { lastReportAt: reporter.lastReportAt },
      setWhere: sql`${dmarcReporterAlerts.lastReportAt} <> excluded.last_report_at`,
    })
    .returning();
  return claimed !== undefined;
}
