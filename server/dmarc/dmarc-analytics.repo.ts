import { and, asc, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../platform/db/client';
import { dmarcRecords, dmarcReports } from '../platform/db/schema/index';
import { loadReporterActivity, type ReporterActivity } from './reporter-health';

/** What the analytics are computed from: aggregates of the user's stored rows, one query each. */
export interface AnalyticsRows {
  /** Per UTC day (of the report's begin) and domain. */
  days: { date: string; domain: string | null; reports: number; messages: number; passed: number }[];
  /** Per source IP and disposition. */
  sources: SourceRow[];
  /** The policy each domain published in its latest report of the period. */
  policies: { domain: string | null; p: string | null; pct: number | null; testing: string | null }[];
  /** Every reporter of the domain(s), whatever the period: one that went quiet must still show. */
  reporters: ReporterActivity[];
}

export interface SourceRow {
  sourceIp: string;
  disposition: string;
  domains: string[];
  total: number;
  spfAligned: number;
  dkimAligned: number;
  failed: number;
  /** Failed DMARC although SPF or DKIM passed for some domain: an unaligned sender, not a forger. */
  failedMisaligned: number;
}

export async function loadAnalyticsRows(db: Db, userId: number, days: number, domain?: string): Promise<AnalyticsRows> {
  const owned = and(eq(dmarcReports.userId, userId), eq(dmarcReports.status, 'imported'), domain ? eq(dmarcReports.domain, domain) : undefined);
  const inPeriod = and(owned, sql`${dmarcReports.dateBegin} >= now() - make_interval(days => ${days})`);

  const day = sql<string>`to_char(${dmarcReports.dateBegin} at time zone 'UTC', 'YYYY-MM-DD')`;
  const dayRows = await db
    .select({
      date: day,
      domain: dmarcReports.domain,
      reports: sql<number>`count(*)::int`,
      messages: sql<number>`sum(${dmarcReports.messageCount})::float8`,
      passed: sql<number>`sum(${dmarcReports.passCount})::float8`,
    })
    .from(dmarcReports)
    .where(inPeriod)
    .groupBy(day, dmarcReports.domain)
    .orderBy(asc(day));

  const count = dmarcRecords.count;
  const failed = sql`${dmarcRecords.dkimResult} <> 'pass' and ${dmarcRecords.spfResult} <> 'pass'`;
  const anyRawPass = sql`(${dmarcRecords.dkimAuth} @> '[{"result":"pass"}]' or ${dmarcRecords.spfAuth} @> '[{"result":"pass"}]')`;
  const sumWhere = (condition: ReturnType<typeof sql>) => sql<number>`coalesce(sum(${count}) filter (where ${condition}), 0)::float8`;
  const sources = await db
    .select({
      sourceIp: dmarcRecords.sourceIp,
      disposition: dmarcRecords.disposition,
      domains: sql<string[]>`array_agg(distinct ${dmarcReports.domain})`,
      total: sql<number>`sum(${count})::float8`,
      spfAligned: sumWhere(sql`${dmarcRecords.spfResult} = 'pass'`),
      dkimAligned: sumWhere(sql`${dmarcRecords.dkimResult} = 'pass'`),
      failed: sumWhere(failed),
      failedMisaligned: sumWhere(sql`${failed} and ${anyRawPass}`),
    })
    .from(dmarcRecords)
    .innerJoin(dmarcReports, eq(dmarcRecords.reportId, dmarcReports.id))
    .where(inPeriod)
    .groupBy(dmarcRecords.sourceIp, dmarcRecords.disposition);

  const policies = await db
    .selectDistinctOn([dmarcReports.domain], { domain: dmarcReports.domain, p: dmarcReports.p, pct: dmarcReports.pct, testing: dmarcReports.testing })
    .from(dmarcReports)
    .where(inPeriod)
    .orderBy(dmarcReports.domain, desc(dmarcReports.dateBegin));

  const reporters = await loadReporterActivity(db, sql`user_id = ${userId} and ${domain ? sql`domain = ${domain}` : sql`true`}`);

  return { days: dayRows, sources, policies, reporters };
}
