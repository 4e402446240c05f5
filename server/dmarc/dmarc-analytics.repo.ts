import { addDays, dayStart, utcDay } from '@contracts/utc-day';
import { and, asc, desc, eq, gte, sql, type SQL } from 'drizzle-orm';
import type { Db, Executor } from '../platform/db/client';
import { dmarcRecords, dmarcReports, dmarcSourceDays } from '../platform/db/schema/index';
import { countedReport } from './dmarc.repo';
import { THREAT_THRESHOLDS } from './threat-severity';
import type { ReporterActivity } from './reporter-health';

/** What the analytics are computed from: aggregates of the user's stored rows, one query each. */
export interface AnalyticsRows {
  /** Per UTC day (of the report's begin) and domain. */
  days: { date: string; domain: string | null; reports: number; messages: number; passed: number }[];
  /** Per source IP and disposition, for the IPs that can show (SOURCE_ROWS_PER_ORDER); the rest are summed in `otherSources`. */
  sources: SourceRow[];
  otherSources: OtherSources;
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

/**
 * The source IPs left out of `sources`: each is its own source (only IPs among the busiest are named
 * by reverse DNS and grouped), so their threat severities and spoofed messages can be counted in SQL.
 */
export interface OtherSources {
  ips: number;
  /** IPs with failed messages, by the severity their failures give them (THREAT_THRESHOLDS). */
  failing: { critical: number; high: number; medium: number; low: number };
  /** Failed messages of those IPs whose failures are mostly spoofing (not misaligned). */
  spoofedMessages: number;
}

/**
 * How many IPs `sources` holds at most, per order: the busiest, the most failed, the most failed of
 * the misaligned. The analytics show 100 sources, 10 threats and 3 misaligned services, and name only
 * the 150 busiest IPs, so an IP beyond these ranks can only be counted, never shown: a user whose
 * reports name 100,000 IPs gets an answer as fast as one whose name 100.
 */
const SOURCE_ROWS_PER_ORDER = 1000;

export async function loadAnalyticsRows(db: Db, userId: number, days: number, domain?: string): Promise<AnalyticsRows> {
  const owned = and(
    eq(dmarcReports.userId, userId),
    countedReport,
    domain ? eq(dmarcReports.domain, domain) : undefined,
  );
  const first = firstDayOf(days);
  const inPeriod = and(owned, gte(dmarcReports.dateBegin, dayStart(first)));

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

  const { sources, otherSources } = await loadSources(db, userId, first, domain);

  const policies = await db
    .selectDistinctOn([dmarcReports.domain], {
      domain: dmarcReports.domain,
      p: dmarcReports.p,
      pct: dmarcReports.pct,
      testing: dmarcReports.testing,
    })
    .from(dmarcReports)
    .where(inPeriod)
    .orderBy(dmarcReports.domain, desc(dmarcReports.dateBegin));

  const reporters = await loadReporterActivity(db, { userId, domain });

  return { days: dayRows, sources, otherSources, policies, reporters };
}

/**
 * The first UTC day of a period of `days` days: whole days, as dmarc_source_days counts them, today and the `days`
 * days before it. A value, not SQL of now(): the planner then knows from its statistics how few rows a short period
 * holds, and reads them through the index instead of the whole table.
 */
export function firstDayOf(days: number): string {
  return addDays(utcDay(), -days);
}

/** Per IP and disposition from dmarc_source_days, bounded by SOURCE_ROWS_PER_ORDER, and what the bound left out. */
async function loadSources(
  db: Db,
  userId: number,
  firstDay: string,
  domain?: string,
): Promise<{ sources: SourceRow[]; otherSources: OtherSources }> {
  const result = await db.execute<{ sources: SourceRow[]; other: OtherSources }>(
    sourcesQuery(userId, firstDay, domain),
  );
  const [{ sources, other }] = result.rows;
  return { sources, otherSources: { ...other, spoofedMessages: Number(other.spoofedMessages) } };
}

/** loadSources' statement: one domain's period is read through dmarc_source_days_user_domain_day_idx. */
export function sourcesQuery(userId: number, firstDay: string, domain?: string): SQL {
  const n = SOURCE_ROWS_PER_ORDER;
  const scope = sql`user_id = ${userId} and day >= ${firstDay}::date ${domain ? sql`and domain = ${domain}` : sql``}`;
  // One statement, ranking once and joining nothing: the rows per IP and disposition carry their IP's
  // sums (window functions), and IPs are ranked by dense_rank over those rows, so an IP's rows share its
  // rank. (A join of the rows to the ranked IPs ran as a nested loop for want of statistics right after
  // an import: 114 s for 30,000 IPs.) `shown` marks the IPs whose rows are returned; the sums of the
  // rest are counted once per IP (first_of_ip). The shown rows and those sums come back as two JSON values.
  return sql`
    with g as (
      select source_ip, disposition, array_agg(distinct domain) as domains, sum(total) as total, sum(spf_aligned) as spf_aligned,
        sum(dkim_aligned) as dkim_aligned, sum(failed) as failed, sum(failed_misaligned) as failed_misaligned
      from ${dmarcSourceDays} where ${scope} group by source_ip, disposition
    ),
    per_ip as (
      select g.*, sum(total) over ip as ip_total, sum(failed) over ip as ip_failed, sum(failed_misaligned) over ip as ip_misaligned,
        row_number() over (ip order by disposition) = 1 as first_of_ip
      from g window ip as (partition by source_ip)
    ),
    ranked as (
      select *, (dense_rank() over (order by ip_total desc, source_ip) <= ${n}
        or (ip_failed > 0 and dense_rank() over (order by ip_failed desc, source_ip) <= ${n})
        or (ip_misaligned * 2 > ip_failed and dense_rank() over (order by (ip_misaligned * 2 > ip_failed) desc, ip_failed desc, source_ip) <= ${n})) as shown
      from per_ip
    )
    select coalesce((select json_agg(json_build_object('sourceIp', source_ip, 'disposition', disposition, 'domains', domains, 'total', total::float8,
        'spfAligned', spf_aligned::float8, 'dkimAligned', dkim_aligned::float8, 'failed', failed::float8, 'failedMisaligned', failed_misaligned::float8))
        from ranked where shown), '[]') as sources,
      (select json_build_object(
        'ips', count(*),
        'failing', json_build_object(
          'critical', count(*) filter (where ip_failed >= ${THREAT_THRESHOLDS.critical}),
          'high', count(*) filter (where ip_failed >= ${THREAT_THRESHOLDS.high} and ip_failed < ${THREAT_THRESHOLDS.critical}),
          'medium', count(*) filter (where ip_failed >= ${THREAT_THRESHOLDS.medium} and ip_failed < ${THREAT_THRESHOLDS.high}),
          'low', count(*) filter (where ip_failed > 0 and ip_failed < ${THREAT_THRESHOLDS.medium})),
        'spoofedMessages', coalesce(sum(ip_failed) filter (where ip_failed > 0 and not ip_misaligned * 2 > ip_failed), 0))
       from ranked where not shown and first_of_ip) as other`;
}

/** Whose reports loadReporterActivity reads: one user's (of one domain), or everyone's. */
export interface ReporterScope {
  userId?: number;
  domain?: string;
}

/**
 * Each (user, domain, reporter) of the imported reports in `scope`. Read in the order of
 * dmarc_reports_reporters_idx, which holds every column asked: the reporters come grouped without a sort and
 * without reading a report's row, and each one's last week is a few entries of the same index.
 */
export async function loadReporterActivity(ex: Executor, scope: ReporterScope = {}): Promise<ReporterActivity[]> {
  const result = await ex.execute<{
    user_id: number;
    domain: string;
    org_name: string;
    last_end: Date | string;
    reports: number;
    recent_days: number;
  }>(reporterActivityQuery(scope));
  return result.rows.map((row) => ({
    userId: row.user_id,
    domain: row.domain,
    orgName: row.org_name,
    lastReportAt: new Date(row.last_end),
    reports: row.reports,
    recentDays: row.recent_days,
  }));
}

export function reporterActivityQuery(scope: ReporterScope): SQL {
  const conditions: SQL[] = [];
  if (scope.userId !== undefined) conditions.push(sql`user_id = ${scope.userId}`);
  if (scope.domain) conditions.push(sql`domain = ${scope.domain}`);
  const where = conditions.length ? sql.join(conditions, sql` and `) : sql`true`;
  return sql`
    with reporter as (
      select user_id, domain, org_name, max(date_end) as last_end, count(*)::int as reports
      from ${dmarcReports}
      where ${countedReport} and domain is not null and org_name is not null and date_end is not null and ${where}
      group by user_id, domain, org_name
    )
    select reporter.*, recent.days as recent_days
    from reporter cross join lateral (
      select count(distinct (date_end at time zone 'UTC')::date)::int as days
      from ${dmarcReports}
      where ${countedReport} and user_id = reporter.user_id and domain = reporter.domain and org_name = reporter.org_name
        and date_end > reporter.last_end - interval '7 days'
    ) recent
    order by last_end desc`;
}

/** One raw auth result (auth_results) of a source IP, summed over its messages. */
// A type alias, not an interface: execute<Row> wants a row type with an implicit index signature.
export type SourceAuthRow = {
  sourceIp: string;
  kind: 'spf' | 'dkim';
  domain: string;
  result: string;
  count: number;
};

/**
 * How many of the period's last days loadSourceAuth reads. The advice is about a source's set-up as it is now (its
 * return-path, its DKIM domain), which its latest mail shows; and a week of a busy source's records is thousands,
 * where 90 days of them were most of an account's records (issue 39).
 */
const SOURCE_AUTH_DAYS = 7;

/**
 * The raw SPF and DKIM results (auth_results) of a few source IPs in the last week of the period: which domains
 * their mail authenticated as, for naming a source and for advice on it. dmarc_source_days does not keep them, so
 * the records are read, for at most the IPs asked (the busiest sources').
 */
export async function loadSourceAuth(
  db: Db,
  userId: number,
  days: number,
  ips: string[],
  domain?: string,
): Promise<SourceAuthRow[]> {
  if (ips.length === 0) return [];
  const since = dayStart(firstDayOf(Math.min(days, SOURCE_AUTH_DAYS)));
  const result = await db.execute<SourceAuthRow>(sql`
    select d.source_ip as "sourceIp", a.kind, lower(a.domain) as domain, lower(a.result) as result, sum(d.count)::float8 as count
    from ${dmarcRecords} d
    join ${dmarcReports} r on r.id = d.report_id
    cross join lateral (
      select 'spf' as kind, x->>'domain' as domain, x->>'result' as result from jsonb_array_elements(d.spf_auth) x
      union all
      select 'dkim', x->>'domain', x->>'result' from jsonb_array_elements(d.dkim_auth) x
    ) a
    where r.user_id = ${userId} and r.status = 'imported' and r.sender_authenticated is not false and r.date_begin >= ${since}
      ${domain ? sql`and r.domain = ${domain}` : sql``}
      and d.source_ip in ${ips} and a.domain is not null and a.domain <> ''
    group by 1, 2, 3, 4`);
  return result.rows;
}
