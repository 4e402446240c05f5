import { and, eq, sql } from 'drizzle-orm';
import { InboxTestReport, type SeedNetworkStatus } from '../../contracts/inbox-tests';
import type { Executor } from '../platform/db/client';
import { inboxTestReports, inboxTests, seedMailboxes } from '../platform/db/schema/index';

// The inbox-test routes' own reads and deletes; the test lifecycle (create, complete, fail) is in inbox-tests.store.ts.

/** The stored analysis report of the user's test; undefined until its message arrived, and for another user's test. */
export async function findUserTestReport(ex: Executor, userId: number, testId: number): Promise<InboxTestReport | undefined> {
  const [row] = await ex
    .select({ report: inboxTestReports.report })
    .from(inboxTestReports)
    .innerJoin(inboxTests, eq(inboxTests.id, inboxTestReports.testId))
    .where(and(eq(inboxTestReports.testId, testId), eq(inboxTests.userId, userId)));
  return row && InboxTestReport.parse(row.report);
}

/** Deletes the user's test with its placements and report (foreign keys cascade); whether there was one. */
export async function deleteUserTest(ex: Executor, userId: number, id: number): Promise<boolean> {
  const rows = await ex
    .delete(inboxTests)
    .where(and(eq(inboxTests.id, id), eq(inboxTests.userId, userId)))
    .returning({ id: inboxTests.id });
  return rows.length > 0;
}

/** The active seed network (the same for every user): provider and address counts, in all and per region. */
export async function seedNetworkStatus(ex: Executor): Promise<SeedNetworkStatus> {
  const active = eq(seedMailboxes.active, true);
  const byRegion = await ex
    .select({ region: seedMailboxes.region, providers: sql<number>`count(distinct ${seedMailboxes.provider})::int`, addresses: sql<number>`count(*)::int` })
    .from(seedMailboxes)
    .where(active)
    .groupBy(seedMailboxes.region);
  const [total] = await ex.select({ providers: sql<number>`count(distinct ${seedMailboxes.provider})::int` }).from(seedMailboxes).where(active);
  const totalAddresses = byRegion.reduce((sum, row) => sum + row.addresses, 0);
  return {
    configured: totalAddresses > 0,
    totalProviders: total?.providers ?? 0,
    totalAddresses,
    byRegion: Object.fromEntries(byRegion.map((row) => [row.region, row.providers])),
  };
}
