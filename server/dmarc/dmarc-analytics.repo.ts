import { and, asc, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { Db, Executor } from '../platform/db/client';
import { dmarcRecords, dmarcReports } from '../platform/db/schema/index';
import type { ReporterActivity } from './reporter-health';

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

  const reporters = await loadReporterActivity(db, { userId, domain });

  return { days: dayRows, sources, policies, reporters };
}

/** Whose reports loadReporterActivity reads: one user's (of one domain), or everyone's. */
export interface ReporterScope {
  userId?: number;
  domain?: string;
}

/** Each (user, domain, reporter) of the imported reports in `scope`. */
export async function loadReporterActivity(ex: Executor, scope: ReporterScope = {}): Promise<ReporterActivity[]> {
  const conditions: SQL[] = [];
  if (scope.userId !== undefined) conditions.push(sql`user_id = ${scope.userId}`);
  if (scope.domain) conditions.push(sql`domain = ${scope.domain}`);
  const where = conditions.length ? sql.join(conditions, sql` and `) : sql`true`;
  const result = (await ex.execute(sql`
    with r as (
      select user_id, domain, org_name, date_end,
             max(date_end) over (partition by user_id, domain, org_name) as last_end
      from dmarc_reports
      where status = 'imported' and domain is not null and org_name is not null and date_end is not null and ${where}
    )
    select user_id, domain, org_name, last_end, count(*)::int as reports,
           (count(distinct (date_end at time zone 'UTC')::date) filter (where date_end > last_end - interval '7 days'))::int as recent_days
    from r
    group by user_id, domain, org_name, last_end
    order by last_end desc`)) as unknown as {
    rows: { user_id: number; domain: string; org_name: string; last_end: Date | string; reports: number; recent_days: number }[];
  };
  return result.rows.map((row) => ({
    userId: row.user_id,
    domain: row.domain,
    orgName: row.org_name,
    lastReportAt: new Date(row.last_end),
    reports: row.reports,
    recentDays: row.recent_days,
  }));
}
