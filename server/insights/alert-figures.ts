import { and, desc, eq, gt, gte, isNotNull, lte, sql, type SQL } from 'drizzle-orm';
import type { DomainChecks } from '@contracts/domains';
import type { DayVolumes } from '@contracts/figures';
import { daysAgo } from '@contracts/utc-day';
import type { Executor } from '../platform/db/client';
import { listDayTotals } from './email-metric-days';
import {
  alertRules,
  alerts,
  deliveryEvents,
  dmarcReports,
  dmarcSourceDays,
  domains,
  emailMetrics,
  inboxTestReports,
  inboxTests,
  ipAddresses,
  postmasterStats,
} from '../platform/db/schema/index';

/*
 * What the alert evaluation (server/alerts/evaluation/) reads of other capabilities' tables: inbox tests, sending
 * figures and delivery events, IP addresses, domains, DMARC and Postmaster days. Those capabilities import
 * server/alerts to raise their alerts, so the evaluation cannot ask them; it reads here.
 */

export interface TestRow {
  id: number;
  /** The From domain (DMARC's, else the From address's), lower case; null when the report does not say. */
  domain: string | null;
  inboxCount: number;
  totalSeeds: number;
  completedAt: Date;
}

/** The user's completed inbox tests of the last `days` days, newest first. */
export async function listRecentTests(ex: Executor, userId: number, now: Date, days: number): Promise<TestRow[]> {
  const domain = sql<
    string | null
  >`nullif(lower(coalesce(${inboxTestReports.report} #>> '{authentication,dmarc,domain}', split_part(${inboxTestReports.report} #>> '{authentication,headerFrom,0}', '@', 2))), '')`;
  const since = daysAgo(days, now);
  const rows = await ex
    .select({
      id: inboxTests.id,
      domain,
      inboxCount: inboxTests.inboxCount,
      totalSeeds: inboxTests.totalSeeds,
      completedAt: inboxTests.completedAt,
    })
    .from(inboxTests)
    .leftJoin(inboxTestReports, eq(inboxTestReports.testId, inboxTests.id))
    .where(
      and(
        eq(inboxTests.userId, userId),
        eq(inboxTests.status, 'completed'),
        isNotNull(inboxTests.completedAt),
        gte(inboxTests.completedAt, since),
      ),
    )
    .orderBy(desc(inboxTests.completedAt), desc(inboxTests.id));
  return rows.map((r) => ({ ...r, domain: r.domain?.replace(/[>\s]+$/, '') || null, completedAt: r.completedAt! }));
}

/** The user's sending figures per UTC day from `since` (YYYY-MM-DD), every provider summed. */
export async function listMetricDays(ex: Executor, userId: number, since: string): Promise<DayVolumes[]> {
  return listDayTotals(ex, userId, { from: since });
}

export async function listScoredIps(
  ex: Executor,
  userId: number,
): Promise<{ ipAddress: string; senderScore: number | null }[]> {
  return ex
    .select({ ipAddress: ipAddresses.ipAddress, senderScore: ipAddresses.senderScore })
    .from(ipAddresses)
    .where(eq(ipAddresses.userId, userId));
}

export interface DomainFacts {
  domain: string;
  status: 'healthy' | 'warning' | 'error' | 'pending';
  spfStatus: string | null;
  dkimStatus: string | null;
  dmarcStatus: string | null;
  checks: DomainChecks | null;
  lastCheckedAt: Date | null;
  reputationScore: number | null;
}

export async function listDomainFacts(ex: Executor, userId: number): Promise<DomainFacts[]> {
  const rows = await ex
    .select({
      domain: domains.domain,
      status: domains.status,
      spfStatus: domains.spfStatus,
      dkimStatus: domains.dkimStatus,
      dmarcStatus: domains.dmarcStatus,
      checks: domains.checks,
      lastCheckedAt: domains.lastCheckedAt,
      reputationScore: domains.reputationScore,
    })
    .from(domains)
    .where(eq(domains.userId, userId))
    .orderBy(domains.domain);
  return rows.map((r) => ({ ...r, domain: r.domain.toLowerCase() }));
}

export interface DmarcDomainTotals {
  domain: string;
  total: number;
  failed: number;
  /** The sources that failed most, most first. */
  topSources: { ip: string; count: number }[];
}

/** DMARC report figures of the days from `since` (YYYY-MM-DD) per domain, with each domain's top failing sources. */
export async function listDmarcTotals(
  ex: Executor,
  userId: number,
  since: string,
  topN = 5,
): Promise<DmarcDomainTotals[]> {
  const domain = sql<string>`lower(${dmarcSourceDays.domain})`;
  const where = and(eq(dmarcSourceDays.userId, userId), gte(dmarcSourceDays.day, since));
  const totals = await ex
    .select({
      domain,
      total: sql<number>`sum(${dmarcSourceDays.total})::float8`,
      failed: sql<number>`sum(${dmarcSourceDays.failed})::float8`,
    })
    .from(dmarcSourceDays)
    .where(where)
    .groupBy(domain)
    .orderBy(domain);
  if (totals.length === 0) return [];
  const sources = await ex
    .select({ domain, ip: dmarcSourceDays.sourceIp, count: sql<number>`sum(${dmarcSourceDays.failed})::float8` })
    .from(dmarcSourceDays)
    .where(and(where, sql`${dmarcSourceDays.failed} > 0`))
    .groupBy(domain, dmarcSourceDays.sourceIp)
    .orderBy(domain, sql`3 desc`, dmarcSourceDays.sourceIp);
  return totals.map((t) => ({
    ...t,
    topSources: sources
      .filter((s) => s.domain === t.domain)
      .slice(0, topN)
      .map((s) => ({ ip: s.ip, count: s.count })),
  }));
}

/**
 * Users with something to evaluate: alert rules, email metrics, monitored IPs, domains, inbox tests
 * or DMARC reports, and those with an open condition alert (to resolve it when its data is gone).
 */
export async function listEvaluationUserIds(ex: Executor): Promise<number[]> {
  const result = await ex.execute<{ user_id: number }>(sql`
    select user_id from ${alertRules}
    union select user_id from ${emailMetrics}
    union select user_id from ${ipAddresses}
    union select user_id from ${domains}
    union select user_id from ${inboxTests} where status = 'completed'
    union select user_id from ${dmarcReports}
    union select user_id from ${alerts} where condition_key is not null and resolved_at is null
    order by 1`);
  return result.rows.map((r) => Number(r.user_id));
}

/** Gmail's user-reported spam rate of one domain on the latest day Postmaster Tools has one (a ratio, 0.003 = 0.3 %). */
export interface GmailSpamDay {
  domain: string;
  date: string;
  spamRatio: number;
}

/** Per domain, the latest day since `since` with a spam rate in the imported Postmaster Tools figures. */
export async function listLatestGmailSpam(ex: Executor, userId: number, since: string): Promise<GmailSpamDay[]> {
  const rows = await ex
    .selectDistinctOn([postmasterStats.domain], {
      domain: postmasterStats.domain,
      date: postmasterStats.date,
      spamRatio: postmasterStats.userReportedSpamRatio,
    })
    .from(postmasterStats)
    .where(
      and(
        eq(postmasterStats.userId, userId),
        gte(postmasterStats.date, since),
        isNotNull(postmasterStats.userReportedSpamRatio),
      ),
    )
    .orderBy(postmasterStats.domain, desc(postmasterStats.date));
  return rows.map((r) => ({ domain: r.domain, date: r.date, spamRatio: r.spamRatio! }));
}

/** Messages of a stretch of time as delivery events count them: a delivery or a bounce is a message sent. */
export interface EventTotals {
  sent: number;
  delivered: number;
  bounced: number;
  complaints: number;
}

/** A rule's window of events, and the window of the same length just before it (for volume changes). */
export interface EventWindows {
  current: EventTotals;
  previous: EventTotals;
}

/**
 * The delivery events of (end - length, end] and of the same length before it, from the events' own
 * times, of one sending domain (or a subdomain: envelope senders are often bounce.example.com) or of
 * all. One range scan of delivery_events_user_time_idx.
 */
export async function countEventWindows(
  ex: Executor,
  userId: number,
  end: Date,
  lengthMs: number,
  domain: string | null,
): Promise<EventWindows> {
  const start = new Date(end.getTime() - lengthMs);
  const where = [
    eq(deliveryEvents.userId, userId),
    gt(deliveryEvents.occurredAt, new Date(start.getTime() - lengthMs)),
    lte(deliveryEvents.occurredAt, end),
  ];
  if (domain !== null) {
    const sender = sql`lower(${deliveryEvents.domain})`;
    where.push(sql`(${sender} = ${domain} or right(${sender}, ${domain.length + 1}) = ${`.${domain}`})`);
  }
  const totals = (window: 'current' | 'previous') => {
    const inWindow =
      window === 'current'
        ? sql`${deliveryEvents.occurredAt} > ${start.toISOString()}`
        : sql`${deliveryEvents.occurredAt} <= ${start.toISOString()}`;
    const counted = (condition: SQL) => sql<number>`(count(*) filter (where ${inWindow} and ${condition}))::float8`;
    return {
      sent: counted(sql`${deliveryEvents.eventType} in ('delivered', 'bounced')`),
      delivered: counted(sql`${deliveryEvents.eventType} = 'delivered'`),
      bounced: counted(sql`${deliveryEvents.eventType} = 'bounced'`),
      complaints: counted(sql`${deliveryEvents.eventType} = 'complaint'`),
    };
  };
  const [row] = await ex
    .select({ current: totals('current'), previous: totals('previous') })
    .from(deliveryEvents)
    .where(and(...where));
  return row;
}
