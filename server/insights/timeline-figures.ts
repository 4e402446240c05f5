import type { DayVolumes } from '@contracts/figures';
import { utcDay } from '@contracts/utc-day';
import { and, desc, eq, gte, inArray, isNotNull, lte, or, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../platform/db/client';
import { listDayTotals } from './email-metric-days';
import { isSameOrSubdomain } from '../platform/db/domain-match';
import { isSameOrSubdomainIndexed } from '../platform/db/reversed-domain';
import { latestOutcome } from './delivery-outcomes';
import {
  blocklistListings,
  deliveryEvents,
  dmarcSourceDays,
  domainDnsChanges,
  emailMetrics,
  inboxTestPlacements,
  inboxTestReports,
  inboxTests,
  ipAddresses,
  postmasterStats,
} from '../platform/db/schema/index';

/*
 * The evidence a domain's deliverability timeline reads (server/timeline/, ADR 035) from the tables of the inbox
 * tests, DMARC, delivery events, Postmaster, reputation and domains capabilities: every query names the user and is
 * bounded by a time range and a row limit. The timeline's own tables (notes, integration errors, drop alerts) are
 * read in timeline/timeline.repo.ts.
 */

/** The most rows of one kind one timeline reads (the newest are kept). */
export const ROWS_MAX = 1000;

export interface Range {
  since: Date;
  until: Date;
}

// ---------------------------------------------------------------------------------------------
// Inbox tests

/** The From domain of a test (DMARC's, else the From address's), as the alert evaluation reads it. */
const testDomain = sql<string>`nullif(lower(rtrim(coalesce(${inboxTestReports.report} #>> '{authentication,dmarc,domain}', split_part(${inboxTestReports.report} #>> '{authentication,headerFrom,0}', '@', 2)), '> ')), '')`;

export interface TestRow {
  id: number;
  completedAt: Date;
  inboxCount: number;
  totalSeeds: number;
}

/** The user's completed tests sent from `domain` (or a subdomain of it), newest first. */
export async function listDomainTests(ex: Executor, userId: number, domain: string, range: Range): Promise<TestRow[]> {
  const rows = await ex
    .select({
      id: inboxTests.id,
      completedAt: inboxTests.completedAt,
      inboxCount: inboxTests.inboxCount,
      totalSeeds: inboxTests.totalSeeds,
    })
    .from(inboxTests)
    .innerJoin(inboxTestReports, eq(inboxTestReports.testId, inboxTests.id))
    .where(
      and(
        eq(inboxTests.userId, userId),
        eq(inboxTests.status, 'completed'),
        gte(inboxTests.completedAt, range.since),
        lte(inboxTests.completedAt, range.until),
        isSameOrSubdomain(testDomain, domain),
      ),
    )
    .orderBy(desc(inboxTests.completedAt), desc(inboxTests.id))
    .limit(ROWS_MAX);
  return rows.map((r) => ({ ...r, completedAt: r.completedAt! }));
}

export interface ProviderPlacement {
  testId: number;
  provider: string;
  inbox: number;
  seeds: number;
}

/** Per test and mailbox provider, the seeds that answered and those in the inbox (the analyser is no provider). */
export async function listProviderPlacements(ex: Executor, testIds: number[]): Promise<ProviderPlacement[]> {
  if (testIds.length === 0) return [];
  return ex
    .select({
      testId: inboxTestPlacements.testId,
      provider: inboxTestPlacements.provider,
      inbox: sql<number>`(count(*) filter (where ${inboxTestPlacements.placement} = 'inbox'))::int`,
      seeds: sql<number>`count(*)::int`,
    })
    .from(inboxTestPlacements)
    .where(
      and(
        inArray(inboxTestPlacements.testId, testIds),
        eq(inboxTestPlacements.isAnalyser, false),
        isNotNull(inboxTestPlacements.placement),
      ),
    )
    .groupBy(inboxTestPlacements.testId, inboxTestPlacements.provider);
}

// ---------------------------------------------------------------------------------------------
// DMARC

/*
 * dmarc_source_days' key leads with the user and the day, then the domain: a range of days would read every
 * domain's rows of those days. Listing the days instead lets the index probe each day for the one domain.
 * Domains are stored as the report's parser wrote them, in lower case (parse-aggregate.ts readPolicy), so the
 * name is compared as it is and the key serves it.
 */
function onDaysOf(domain: string, from: string | SQL, to: string): SQL {
  return sql`${dmarcSourceDays.domain} = ${domain} and ${dmarcSourceDays.day} = any(array(select generate_series(${from}::date, ${to}::date, interval '1 day')::date))`;
}

export interface DmarcDay {
  day: string;
  total: number;
  failed: number;
}

export async function listDmarcDays(ex: Executor, userId: number, domain: string, range: Range): Promise<DmarcDay[]> {
  return ex
    .select({
      day: sql<string>`to_char(${dmarcSourceDays.day}, 'YYYY-MM-DD')`,
      total: sql<number>`sum(${dmarcSourceDays.total})::float8`,
      failed: sql<number>`sum(${dmarcSourceDays.failed})::float8`,
    })
    .from(dmarcSourceDays)
    .where(and(eq(dmarcSourceDays.userId, userId), onDaysOf(domain, utcDay(range.since), utcDay(range.until))))
    .groupBy(dmarcSourceDays.day)
    .orderBy(dmarcSourceDays.day)
    .limit(ROWS_MAX);
}

export type NewSource = {
  ip: string;
  day: string;
  total: number;
  failed: number;
};

/**
 * Sources seen for the first time in the domain's reports on a day of the range, failing DMARC that
 * day. Not on the domain's first report day: then every source is new. A source's first day is read
 * from the user's first stored day on (retention bounds that), from the key alone.
 */
export async function listNewFailingSources(
  ex: Executor,
  userId: number,
  domain: string,
  range: Range,
): Promise<NewSource[]> {
  const result = await ex.execute<NewSource>(sql`
    with firsts as (
      select source_ip, min(day) as first_day from ${dmarcSourceDays}
      where user_id = ${userId} and ${onDaysOf(domain, sql`(select min(day) from ${dmarcSourceDays} where user_id = ${userId})`, utcDay(range.until))}
      group by source_ip
    )
    select f.source_ip as ip, to_char(f.first_day, 'YYYY-MM-DD') as day, sum(m.total)::float8 as total, sum(m.failed)::float8 as failed
    from firsts f join ${dmarcSourceDays} m on m.user_id = ${userId} and m.day = f.first_day and m.domain = ${domain} and m.source_ip = f.source_ip
    where f.first_day >= ${utcDay(range.since)} and f.first_day <= ${utcDay(range.until)} and f.first_day > (select min(first_day) from firsts)
    group by f.source_ip, f.first_day
    having sum(m.failed) > 0
    order by f.first_day desc, sum(m.failed) desc
    limit ${ROWS_MAX}`);
  return result.rows.map((r) => ({
    ...r,
    total: Number(r.total),
    failed: Number(r.failed),
  }));
}

// ---------------------------------------------------------------------------------------------
// Sending figures

/** The account's sending figures per day (every source summed, each source's own statistics first). */
export async function listAccountMetricDays(ex: Executor, userId: number, range: Range): Promise<DayVolumes[]> {
  return listDayTotals(ex, userId, { from: utcDay(range.since), to: utcDay(range.until) });
}

/**
 * One domain's own figures per UTC day: the MTA events sent from it or a subdomain (the envelope
 * sender's domain, bounce.brand.com under brand.com). ESP statistics name no domain, so they are
 * only in the account's figures above.
 */
export async function listDomainEventDays(
  ex: Executor,
  userId: number,
  domain: string,
  range: Range,
): Promise<DayVolumes[]> {
  const date = sql<string>`to_char(${deliveryEvents.occurredAt} at time zone 'UTC', 'YYYY-MM-DD')`;
  const count = (where: SQL) => sql<number>`(count(*) filter (where ${where}))::float8`;
  const rows = await ex
    .select({
      date,
      // A message whose delivery a later bounce replaced is one message, bounced (ADR 053).
      delivered: count(latestOutcome('delivered')),
      bounced: count(latestOutcome('bounced')),
      complaints: count(sql`${deliveryEvents.eventType} = 'complaint'`),
    })
    .from(deliveryEvents)
    .where(
      and(
        eq(deliveryEvents.userId, userId),
        gte(deliveryEvents.occurredAt, range.since),
        lte(deliveryEvents.occurredAt, range.until),
        isSameOrSubdomainIndexed(deliveryEvents.domain, domain),
      ),
    )
    .groupBy(date)
    .orderBy(date)
    .limit(ROWS_MAX);
  // Sent: each message once, by its latest outcome (delivery-outcomes.ts).
  return rows.map((row) => ({ ...row, sent: row.delivered + row.bounced }));
}

/** One sending IP's figures per day, from the MTA event rows that name it. */
export async function listIpMetricDays(
  ex: Executor,
  userId: number,
  address: string,
  range: Range,
): Promise<DayVolumes[]> {
  const date = sql<string>`to_char(${emailMetrics.date}, 'YYYY-MM-DD')`;
  return ex
    .select({
      date,
      sent: sql<number>`sum(${emailMetrics.emailsSent})::float8`,
      delivered: sql<number>`sum(${emailMetrics.delivered})::float8`,
      bounced: sql<number>`sum(${emailMetrics.bounced})::float8`,
      complaints: sql<number>`sum(${emailMetrics.complaints})::float8`,
    })
    .from(emailMetrics)
    .where(
      and(
        eq(emailMetrics.userId, userId),
        eq(emailMetrics.sendingIp, address),
        gte(emailMetrics.date, utcDay(range.since)),
        lte(emailMetrics.date, utcDay(range.until)),
      ),
    )
    .groupBy(date)
    .orderBy(date)
    .limit(ROWS_MAX);
}

export interface SpamDay {
  date: string;
  ratio: number;
}

export async function listGmailSpamDays(
  ex: Executor,
  userId: number,
  domain: string,
  range: Range,
): Promise<SpamDay[]> {
  const rows = await ex
    .select({ date: postmasterStats.date, ratio: postmasterStats.userReportedSpamRatio })
    .from(postmasterStats)
    .where(
      and(
        eq(postmasterStats.userId, userId),
        sql`lower(${postmasterStats.domain}) = ${domain}`,
        gte(postmasterStats.date, utcDay(range.since)),
        lte(postmasterStats.date, utcDay(range.until)),
        isNotNull(postmasterStats.userReportedSpamRatio),
      ),
    )
    .orderBy(postmasterStats.date)
    .limit(ROWS_MAX);
  return rows.map((r) => ({ date: r.date, ratio: r.ratio! }));
}

// ---------------------------------------------------------------------------------------------
// Blocklists

export interface IpRow {
  id: number;
  ipAddress: string;
}

export async function findUserIp(ex: Executor, userId: number, id: number): Promise<IpRow | undefined> {
  const [row] = await ex
    .select({ id: ipAddresses.id, ipAddress: ipAddresses.ipAddress })
    .from(ipAddresses)
    .where(and(eq(ipAddresses.id, id), eq(ipAddresses.userId, userId)));
  return row;
}

/**
 * The user's monitored IPs that send for `domain`: their dedicated IPs (only they send from those),
 * the shared ones they associated with it, and any the domain's DMARC reports of the range saw sending.
 */
export async function listSendingIps(ex: Executor, userId: number, domain: string, range: Range): Promise<IpRow[]> {
  return ex
    .select({ id: ipAddresses.id, ipAddress: ipAddresses.ipAddress })
    .from(ipAddresses)
    .where(
      and(
        eq(ipAddresses.userId, userId),
        or(
          eq(ipAddresses.type, 'dedicated'),
          sql`exists (select 1 from jsonb_array_elements_text(${ipAddresses.associatedDomains}) d where lower(d) = ${domain})`,
          sql`${ipAddresses.ipAddress} in (select source_ip from ${dmarcSourceDays} where user_id = ${userId} and ${onDaysOf(domain, utcDay(range.since), utcDay(range.until))})`,
        ),
      ),
    )
    .orderBy(ipAddresses.id)
    .limit(ROWS_MAX);
}

export interface ListingRow {
  id: number;
  listId: string;
  listedAt: Date;
  delistedAt: Date | null;
  reason: string | null;
  ipAddressId: number | null;
}

/** Listings of the domain or of these IPs that began or ended in the range, newest first. */
export async function listListings(
  ex: Executor,
  userId: number,
  target: { domainId?: number; ipIds: number[] },
  range: Range,
): Promise<ListingRow[]> {
  const whose = [
    ...(target.domainId !== undefined ? [eq(blocklistListings.domainId, target.domainId)] : []),
    ...(target.ipIds.length ? [inArray(blocklistListings.ipAddressId, target.ipIds)] : []),
  ];
  if (whose.length === 0) return [];
  const inRange = (column: typeof blocklistListings.listedAt | typeof blocklistListings.delistedAt) =>
    and(gte(column, range.since), lte(column, range.until));
  return ex
    .select({
      id: blocklistListings.id,
      listId: blocklistListings.listId,
      listedAt: blocklistListings.listedAt,
      delistedAt: blocklistListings.delistedAt,
      reason: blocklistListings.reason,
      ipAddressId: blocklistListings.ipAddressId,
    })
    .from(blocklistListings)
    .where(
      and(
        eq(blocklistListings.userId, userId),
        or(...whose),
        or(inRange(blocklistListings.listedAt), inRange(blocklistListings.delistedAt)),
      ),
    )
    .orderBy(desc(blocklistListings.listedAt))
    .limit(ROWS_MAX);
}

// ---------------------------------------------------------------------------------------------
// DNS history

export type DnsChangeRow = typeof domainDnsChanges.$inferSelect;

export async function listDnsChanges(
  ex: Executor,
  userId: number,
  domainId: number,
  range: Range,
): Promise<DnsChangeRow[]> {
  return ex
    .select()
    .from(domainDnsChanges)
    .where(
      and(
        eq(domainDnsChanges.userId, userId),
        eq(domainDnsChanges.domainId, domainId),
        gte(domainDnsChanges.observedAt, range.since),
        lte(domainDnsChanges.observedAt, range.until),
      ),
    )
    .orderBy(desc(domainDnsChanges.observedAt), desc(domainDnsChanges.id))
    .limit(ROWS_MAX);
}
