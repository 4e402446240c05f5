import { and, eq, gte, isNotNull, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../platform/db/client';
import { dmarcSourceDays, inboxTestReports, inboxTests } from '../platform/db/schema/index';

// What a reputation run (server/reputation/reputation-run.service.ts) weighs besides the blocklists: the DMARC pass
// rates of the user's reports and the inbox placement of their tests, per sending IP and per domain.

/** The window DMARC pass rates and inbox placement are read over. */
export const RECENT_DAYS = 30;

/** Messages and DMARC passes of the last 30 days in the user's reports, per source IP as reported and per domain. */
export async function loadDmarcTotals(ex: Executor, userId: number) {
  const recent = and(
    eq(dmarcSourceDays.userId, userId),
    sql`${dmarcSourceDays.day} >= current_date - ${RECENT_DAYS}::int`,
  );
  const total = sql<number>`sum(${dmarcSourceDays.total})::float8`;
  const passed = sql<number>`sum(${dmarcSourceDays.total} - ${dmarcSourceDays.failed})::float8`;
  const byIp = await ex
    .select({ key: dmarcSourceDays.sourceIp, total, passed })
    .from(dmarcSourceDays)
    .where(recent)
    .groupBy(dmarcSourceDays.sourceIp);
  const byDomain = await ex
    .select({ key: dmarcSourceDays.domain, total, passed })
    .from(dmarcSourceDays)
    .where(recent)
    .groupBy(dmarcSourceDays.domain);
  return { byIp, byDomain };
}

/**
 * Seeds reached and inbox placements of the user's inbox tests completed in the last 30 days, per
 * connecting IP and per From domain (as DMARC evaluated it) of the test message.
 */
export async function loadPlacementTotals(ex: Executor, userId: number) {
  const recent = and(
    eq(inboxTests.userId, userId),
    eq(inboxTests.status, 'completed'),
    gte(inboxTests.completedAt, sql`now() - make_interval(days => ${RECENT_DAYS}::int)`),
  );
  const total = sql<number>`sum(${inboxTests.inboxCount} + ${inboxTests.spamCount} + ${inboxTests.missingCount})::float8`;
  const inbox = sql<number>`sum(${inboxTests.inboxCount})::float8`;
  const ip = sql<string>`${inboxTestReports.report}->'connectingIp'->>'ip'`;
  const domain = sql<string>`lower(${inboxTestReports.report}->'authentication'->'dmarc'->>'domain')`;
  const query = (key: SQL<string>) =>
    ex
      .select({ key, total, passed: inbox })
      .from(inboxTests)
      .innerJoin(inboxTestReports, eq(inboxTestReports.testId, inboxTests.id))
      .where(and(recent, isNotNull(key)))
      .groupBy(key);
  // In turn: the executor may be a transaction's one connection.
  const byIp = await query(ip);
  const byDomain = await query(domain);
  return { byIp, byDomain };
}
