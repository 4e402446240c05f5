import { and, asc, eq, sql } from 'drizzle-orm';
import type { DashboardTrends } from '@contracts/dashboard';
import type { Db } from '../platform/db/client';
import { emailMetricDays } from './email-metric-days';
import { domains, inboxTests, integrations, ipAddresses } from '../platform/db/schema/index';
import { metricsWindowStart, percentOf } from '@contracts/figures';

/**
 * What the dashboard's overview is computed from (dashboard/dashboard.formulas.ts): aggregates of the user's own
 * rows of the domains, inbox tests, integrations, IP addresses and e-mail figures.
 */
export interface OverviewInputs {
  domains: { count: number; checked: number; validChecks: number; reputationAvg: number | null };
  inboxTests: { count: number; completedSeeds: number; completedInbox: number };
  /** Mean sender score of the user's checked IP addresses; null when none has been checked. */
  ips: { senderScoreAvg: number | null };
  activeIntegrations: number;
  /** Email metrics of the last 30 days. */
  metrics: { rows: number; sent: number; delivered: number; bounced: number; complaints: number };
}

const validCount = (column: typeof domains.spfStatus | typeof domains.dkimStatus | typeof domains.dmarcStatus) =>
  sql`(${column} = 'valid')::int`;

export async function loadOverviewInputs(db: Db, userId: number): Promise<OverviewInputs> {
  const [domainAgg] = await db
    .select({
      count: sql<number>`count(*)::int`,
      checked: sql<number>`count(*) filter (where ${domains.lastCheckedAt} is not null)::int`,
      validChecks: sql<number>`coalesce(sum(${validCount(domains.spfStatus)} + ${validCount(domains.dkimStatus)} + ${validCount(domains.dmarcStatus)}) filter (where ${domains.lastCheckedAt} is not null), 0)::int`,
      reputationAvg: sql<number | null>`avg(${domains.reputationScore})::float8`,
    })
    .from(domains)
    .where(eq(domains.userId, userId));
  const completed = sql`${inboxTests.status} = 'completed'`;
  const [testAgg] = await db
    .select({
      count: sql<number>`count(*)::int`,
      completedSeeds: sql<number>`coalesce(sum(${inboxTests.totalSeeds}) filter (where ${completed}), 0)::int`,
      completedInbox: sql<number>`coalesce(sum(${inboxTests.inboxCount}) filter (where ${completed}), 0)::int`,
    })
    .from(inboxTests)
    .where(eq(inboxTests.userId, userId));
  const [integrationAgg] = await db
    .select({ active: sql<number>`count(*) filter (where ${integrations.status} = 'active')::int` })
    .from(integrations)
    .where(eq(integrations.userId, userId));
  // Summed per provider and day first (emailMetricDays): a day has a row per mailbox provider and sending IP.
  const window = emailMetricDays(db, userId, { from: metricsWindowStart() });
  const [metricAgg] = await db
    .select({
      rows: sql<number>`count(*)::int`,
      sent: sql<number>`coalesce(sum(${window.emailsSent}), 0)::int`,
      delivered: sql<number>`coalesce(sum(${window.delivered}), 0)::int`,
      bounced: sql<number>`coalesce(sum(${window.bounced}), 0)::int`,
      complaints: sql<number>`coalesce(sum(${window.complaints}), 0)::int`,
    })
    .from(window);
  // Unchecked IPs have no score (null) and avg leaves them out.
  const [ipAgg] = await db
    .select({ senderScoreAvg: sql<number | null>`avg(${ipAddresses.senderScore})::float8` })
    .from(ipAddresses)
    .where(eq(ipAddresses.userId, userId));
  return {
    domains: domainAgg,
    inboxTests: testAgg,
    activeIntegrations: integrationAgg.active,
    metrics: metricAgg,
    ips: ipAgg,
  };
}

/** One point per row with something to divide by, in percent with three decimals. */
function series<T extends { date: string }>(rows: T[], part: (r: T) => number, whole: (r: T) => number) {
  return rows.flatMap((r) => {
    const value = percentOf(part(r), whole(r), 3);
    return value === null ? [] : [{ date: r.date, value }];
  });
}

/** Daily series over the last `days` days (UTC); days without data have no point. */
export async function loadTrends(db: Db, userId: number, days: number): Promise<DashboardTrends> {
  const testDay = sql<string>`to_char(${inboxTests.completedAt} at time zone 'UTC', 'YYYY-MM-DD')`;
  const tests = await db
    .select({
      date: testDay,
      seeds: sql<number>`sum(${inboxTests.totalSeeds})::int`,
      inbox: sql<number>`sum(${inboxTests.inboxCount})::int`,
    })
    .from(inboxTests)
    .where(
      and(
        eq(inboxTests.userId, userId),
        eq(inboxTests.status, 'completed'),
        sql`${inboxTests.completedAt} >= now() - make_interval(days => ${days})`,
      ),
    )
    .groupBy(testDay)
    .orderBy(asc(testDay));
  const providerDays = emailMetricDays(db, userId, { from: sql`current_date - ${days - 1}::int` });
  const metricDay = sql<string>`to_char(${providerDays.date}, 'YYYY-MM-DD')`;
  const metrics = await db
    .select({
      date: metricDay,
      sent: sql<number>`sum(${providerDays.emailsSent})::int`,
      delivered: sql<number>`sum(${providerDays.delivered})::int`,
      bounced: sql<number>`sum(${providerDays.bounced})::int`,
      complaints: sql<number>`sum(${providerDays.complaints})::int`,
    })
    .from(providerDays)
    .groupBy(metricDay)
    .orderBy(asc(metricDay));
  return {
    days,
    inboxRate: series(
      tests,
      (t) => t.inbox,
      (t) => t.seeds,
    ),
    deliveryRate: series(
      metrics,
      (m) => m.delivered,
      (m) => m.sent,
    ),
    bounceRate: series(
      metrics,
      (m) => m.bounced,
      (m) => m.sent,
    ),
    complaintRate: series(
      metrics,
      (m) => m.complaints,
      (m) => m.delivered,
    ),
  };
}
