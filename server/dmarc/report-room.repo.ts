import { and, eq, sql } from 'drizzle-orm';
import type { Executor } from '../platform/db/client';
import { dmarcReports } from '../platform/db/schema/index';
import { countedReport, deleteReportRows, sameReport } from './dmarc.repo';

/** Records and bytes (of report XML) some reports hold. */
export interface Held {
  records: number;
  bytes: number;
}

const held = (where: ReturnType<typeof sql>) => ({
  records: sql<number>`coalesce(sum(${dmarcReports.recordCount}) filter (where ${where}), 0)::float8`,
  bytes: sql<number>`coalesce(sum(${dmarcReports.rawSize}) filter (where ${where}), 0)::float8`,
});

/** The user's imported mailed reports of one domain whose mail did (true) or did not (false) prove their reporter. */
const mailedReports = (userId: number, domain: string, authenticated: boolean) =>
  and(
    eq(dmarcReports.userId, userId),
    eq(dmarcReports.domain, domain),
    eq(dmarcReports.status, 'imported'),
    eq(dmarcReports.senderAuthenticated, authenticated),
  );

/** What the user's unauthenticated reports of one domain hold: the allowance they are kept within. */
export async function heldUnauthenticated(ex: Executor, userId: number, domain: string): Promise<Held> {
  const [row] = await ex
    .select(held(sql`true`))
    .from(dmarcReports)
    .where(mailedReports(userId, domain, false));
  return row;
}

/**
 * What authenticated mailed reports stored for one of the user's domains since the start of the UTC day:
 * from one reporting organisation, and from all of them.
 */
export async function arrivedToday(
  ex: Executor,
  userId: number,
  domain: string,
  orgName: string,
): Promise<{ reporter: Held; domain: Held }> {
  const [row] = await ex
    .select({
      reporter: held(sql`${dmarcReports.orgName} = ${orgName}`),
      domain: held(sql`true`),
    })
    .from(dmarcReports)
    .where(
      and(
        mailedReports(userId, domain, true),
        sql`${dmarcReports.createdAt} >= date_trunc('day', now() at time zone 'UTC') at time zone 'UTC'`,
      ),
    );
  return row;
}

/** The records the account's cap counts: the analytics' reports (countedReport), one sum over their rows. */
export async function countedRecordCount(ex: Executor, userId: number): Promise<number> {
  const [row] = await ex
    .select({ records: sql<number>`coalesce(sum(${dmarcReports.recordCount}), 0)::float8` })
    .from(dmarcReports)
    .where(and(eq(dmarcReports.userId, userId), countedReport));
  return row.records;
}

/** Whether this user's copy of a report (same reporter, same report id) is stored, and how it was trusted. */
export async function storedCopy(
  ex: Executor,
  userId: number,
  report: { orgName: string; reportId: string },
): Promise<{ senderAuthenticated: boolean | null } | undefined> {
  const [row] = await ex
    .select({ senderAuthenticated: dmarcReports.senderAuthenticated })
    .from(dmarcReports)
    .where(sameReport(userId, report));
  return row;
}

/** What was removed to make room: how many reports and records, and the latest period among them. */
export interface Removed {
  reports: number;
  records: number;
  latestBegin: Date;
}

/**
 * Removes the user's oldest counted reports (by the period they cover), only those older than `before`,
 * until at least `records` records are freed: what it removed, or undefined (and nothing removed) when
 * all of them together would not free enough.
 */
export async function removeOldestReports(
  tx: Executor,
  userId: number,
  records: number,
  before: Date,
): Promise<Removed | undefined> {
  const oldest = await tx.execute<{ id: number; record_count: number; date_begin: Date | string }>(sql`
    select id, record_count, date_begin from (
      select id, record_count, date_begin, sum(record_count) over (order by date_begin, id) as running
      from ${dmarcReports}
      where user_id = ${userId} and ${countedReport} and record_count > 0 and date_begin < ${before.toISOString()}::timestamptz
    ) r
    where running - record_count < ${records}
    order by date_begin, id`);
  const freed = oldest.rows.reduce((sum, row) => sum + row.record_count, 0);
  if (freed < records || oldest.rows.length === 0) return undefined;
  for (const row of oldest.rows) await deleteReportRows(tx, row.id);
  return {
    reports: oldest.rows.length,
    records: freed,
    latestBegin: new Date(oldest.rows[oldest.rows.length - 1].date_begin),
  };
}
