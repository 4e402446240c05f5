import { and, asc, desc, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import {
  InboxTestReport,
  OneClickUnsubscribeResult,
  type InboxTest,
  type InboxTestResultRow,
  type SeedNetworkStatus,
} from '@contracts/inbox-tests';
import type { Db, Executor } from '../platform/db/client';
import { inboxTestPlacements, inboxTestReports, inboxTests, seedMailboxes } from '../platform/db/schema/index';
import { defaultSubject, inboxTestAddress, newTestToken, subjectTag } from './test-address';

export type InboxTestRow = typeof inboxTests.$inferSelect;

/** A test whose message has not arrived after this long fails. */
export const AWAITING_EMAIL_HOURS = 24;

/** The product's own analyser, the one placement row of a test run without a seed network. */
export const ANALYSER_PLACEMENT = {
  provider: 'InboxPulse analyser (no seed network)',
  mailboxSystem: 'InboxPulse',
  region: 'InboxPulse',
  country: 'N/A',
} as const;

/**
 * Creates a test with one pending placement per active seed, copied from the seed so results keep
 * the network as it was; with no active seed, one row for the product's own analyser. `claim` runs
 * first in the same transaction (the plan's monthly allowance): when it throws, nothing is created.
 */
export async function createInboxTest(
  db: Db,
  userId: number,
  inboundDomain: string,
  claim?: (tx: Executor) => Promise<void>,
  settings: { oneClickUnsubscribeTest?: boolean } = {},
): Promise<InboxTestRow> {
  return db.transaction(async (tx) => {
    await claim?.(tx);
    const [draft] = await tx
      .insert(inboxTests)
      .values({
        userId,
        testType: 'automatic',
        testEmailAddress: `pending-${newTestToken()}@${inboundDomain}`,
        oneClickUnsubscribeTest: settings.oneClickUnsubscribeTest ?? true,
      })
      .returning({ id: inboxTests.id });
    const id = draft!.id;
    const seeds = await tx
      .select()
      .from(seedMailboxes)
      .where(eq(seedMailboxes.active, true))
      .orderBy(asc(seedMailboxes.id));
    const placements = seeds.length
      ? seeds.map((s) => ({
          testId: id,
          seedId: s.id,
          provider: s.provider,
          mailboxSystem: s.mailboxSystem,
          region: s.region,
          country: s.country,
          address: s.address,
        }))
      : [{ testId: id, isAnalyser: true, ...ANALYSER_PLACEMENT }];
    await tx.insert(inboxTestPlacements).values(placements);
    const [row] = await tx
      .update(inboxTests)
      .set({
        testEmailAddress: inboxTestAddress(id, newTestToken(), inboundDomain),
        subject: defaultSubject(id),
        totalSeeds: placements.length,
      })
      .where(eq(inboxTests.id, id))
      .returning();
    return row!;
  });
}

/** The API shape of tests, with their seed addresses and score. */
export async function toInboxTests(ex: Executor, rows: InboxTestRow[]): Promise<InboxTest[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const [placements, reports] = await Promise.all([
    ex
      .select({ testId: inboxTestPlacements.testId, address: inboxTestPlacements.address })
      .from(inboxTestPlacements)
      .where(inArray(inboxTestPlacements.testId, ids))
      .orderBy(asc(inboxTestPlacements.id)),
    ex
      .select({ testId: inboxTestReports.testId, score: inboxTestReports.score })
      .from(inboxTestReports)
      .where(inArray(inboxTestReports.testId, ids)),
  ]);
  const scoreOf = new Map(reports.map((r) => [r.testId, r.score]));
  return rows.map((row) => ({
    id: row.id,
    status: row.status,
    testType: row.testType,
    testEmailAddress: row.testEmailAddress,
    subject: row.subject,
    subjectTag: subjectTag(row.id),
    seedAddresses: placements.filter((p) => p.testId === row.id && p.address).map((p) => p.address!),
    provider: row.provider,
    totalSeeds: row.totalSeeds,
    inboxCount: row.inboxCount,
    spamCount: row.spamCount,
    missingCount: row.missingCount,
    score: scoreOf.get(row.id) ?? null,
    receivedAt: row.receivedAt?.toISOString() ?? null,
    failureReason: row.failureReason,
    createdAt: row.createdAt.toISOString(),
    completedAt: row.completedAt?.toISOString() ?? null,
    oneClickUnsubscribeTest: row.oneClickUnsubscribeTest,
  }));
}

/** The id of the test with this address (lower case), if there is one. */
export async function testIdAt(ex: Executor, address: string): Promise<number | undefined> {
  const [row] = await ex.select({ id: inboxTests.id }).from(inboxTests).where(eq(inboxTests.testEmailAddress, address));
  return row?.id;
}

export async function findUserTest(ex: Executor, userId: number, id: number): Promise<InboxTestRow | undefined> {
  const [row] = await ex
    .select()
    .from(inboxTests)
    .where(and(eq(inboxTests.id, id), eq(inboxTests.userId, userId)));
  return row;
}

export async function listUserTests(ex: Executor, userId: number): Promise<InboxTestRow[]> {
  return ex
    .select()
    .from(inboxTests)
    .where(eq(inboxTests.userId, userId))
    .orderBy(desc(inboxTests.createdAt), desc(inboxTests.id));
}

/**
 * Completes a running test: placements still pending become missing (with `pendingNote` when given),
 * and the test takes its totals from its placements. Does nothing to a test that is not running.
 * Two statements (it runs once per received test message): the first locks a running test's row, so
 * a second completion waits, then finds the test completed and does nothing.
 */
export async function completeInboxTest(
  ex: Executor,
  testId: number,
  pendingNote: string | null = null,
): Promise<void> {
  const running = sql`exists (select 1 from ${inboxTests} where ${inboxTests.id} = ${testId} and ${inboxTests.status} = 'running' for update)`;
  await ex
    .update(inboxTestPlacements)
    .set({ placement: 'missing', note: sql`coalesce(${inboxTestPlacements.note}, ${pendingNote})` })
    .where(and(eq(inboxTestPlacements.testId, testId), isNull(inboxTestPlacements.placement), running));
  const count = (placement?: 'inbox' | 'spam' | 'missing') =>
    sql<number>`(select count(*)::int from ${inboxTestPlacements} where ${inboxTestPlacements.testId} = ${testId}${placement ? sql` and ${inboxTestPlacements.placement} = ${placement}` : sql``})`;
  await ex
    .update(inboxTests)
    .set({
      status: 'completed',
      inboxCount: count('inbox'),
      spamCount: count('spam'),
      missingCount: count('missing'),
      totalSeeds: count(),
      completedAt: sql`now()`,
    })
    .where(and(eq(inboxTests.id, testId), eq(inboxTests.status, 'running')));
}

/**
 * Moves the tests `testIds` names to running with this message, unless another message got there
 * first (a test this message already claimed is claimed again: a re-run after a crash); returns the
 * tests it moved, in order of id, with whether each tries the message's one-click unsubscribe link.
 */
export async function claimTestsForMessage(
  ex: Executor,
  testIds: number[],
  message: { id: number; receivedAt: Date },
): Promise<{ id: number; oneClickUnsubscribeTest: boolean }[]> {
  const rows = await ex
    .update(inboxTests)
    .set({ status: 'running', inboundMessageId: message.id, receivedAt: message.receivedAt })
    .where(
      and(
        inArray(inboxTests.id, testIds),
        or(
          eq(inboxTests.status, 'awaiting_email'),
          and(eq(inboxTests.status, 'running'), eq(inboxTests.inboundMessageId, message.id)),
        ),
      ),
    )
    .returning({ id: inboxTests.id, oneClickUnsubscribeTest: inboxTests.oneClickUnsubscribeTest });
  return rows.sort((a, b) => a.id - b.id);
}

/** The tests this message started, still running, fail with `reason`. */
export async function failTestsOfMessage(
  ex: Executor,
  testIds: number[],
  messageId: number,
  reason: string,
): Promise<void> {
  await ex
    .update(inboxTests)
    .set({ status: 'failed', failureReason: reason, completedAt: sql`now()` })
    .where(
      and(
        inArray(inboxTests.id, testIds),
        eq(inboxTests.status, 'running'),
        eq(inboxTests.inboundMessageId, messageId),
      ),
    );
}

/**
 * Records a started test's report, in one statement (one round trip and one commit; this runs for
 * every message): the report (written over on a re-run), the test's subject and sending provider,
 * and, without a seed network, the analyser's placement and note. That was the test's one
 * placement, so the test is complete (completeInboxTest's work, for a test that has nothing pending;
 * nothing else changes a running test without seeds). Returns whether it has seeds to poll, and its owner.
 */
export async function recordTestReport(
  ex: Executor,
  testId: number,
  report: InboxTestReport,
  test: { subject: string; provider: string | null; analyserPlacement: 'inbox' | 'spam'; analyserNote: string },
): Promise<{ hasSeeds: boolean; userId: number | null }> {
  const result = await ex.execute<{ hasSeeds: boolean; userId: number }>(sql`
    with stored as (
      insert into ${inboxTestReports} (test_id, score, report) values (${testId}, ${report.score}, ${JSON.stringify(report)}::jsonb)
      on conflict (test_id) do update set score = excluded.score, report = excluded.report
    ), classed as (
      update ${inboxTestPlacements} set placement = ${test.analyserPlacement}, note = ${test.analyserNote}, found_at = now()
      where test_id = ${testId} and is_analyser
      returning placement
    )
    update ${inboxTests} t set
      subject = ${test.subject},
      provider = ${test.provider},
      status = case when c.placement is null then t.status else 'completed' end,
      inbox_count = case when c.placement is null then t.inbox_count else (c.placement = 'inbox')::int end,
      spam_count = case when c.placement is null then t.spam_count else (c.placement = 'spam')::int end,
      total_seeds = case when c.placement is null then t.total_seeds else 1 end,
      completed_at = case when c.placement is null then t.completed_at else now() end
    from (select (select placement from classed) as placement) c
    where t.id = ${testId}
    returning c.placement is null as "hasSeeds", t.user_id as "userId"`);
  return { hasSeeds: result.rows[0]?.hasSeeds ?? false, userId: result.rows[0]?.userId ?? null };
}

/** Tests whose message never came: failed after AWAITING_EMAIL_HOURS, with the reason. Returns how many. */
export async function failAbandonedTests(db: Db): Promise<number> {
  const rows = await db
    .update(inboxTests)
    .set({
      status: 'failed',
      failureReason: `No e-mail reached the test address within ${AWAITING_EMAIL_HOURS} hours.`,
      completedAt: sql`now()`,
    })
    .where(
      and(
        eq(inboxTests.status, 'awaiting_email'),
        lt(inboxTests.createdAt, sql`now() - make_interval(hours => ${AWAITING_EMAIL_HOURS})`),
      ),
    )
    .returning({ id: inboxTests.id });
  return rows.length;
}

/** The result rows of a test: its placements grouped by provider, region, country and mailbox system. */
export async function testResults(ex: Executor, testId: number): Promise<InboxTestResultRow[]> {
  const placements = await ex
    .select()
    .from(inboxTestPlacements)
    .where(eq(inboxTestPlacements.testId, testId))
    .orderBy(asc(inboxTestPlacements.id));
  const rows = new Map<string, InboxTestResultRow>();
  for (const p of placements) {
    const key = JSON.stringify([p.provider, p.region, p.country, p.mailboxSystem, p.isAnalyser]);
    const row = rows.get(key) ?? {
      provider: p.provider,
      region: p.region,
      country: p.country,
      mailboxSystem: p.mailboxSystem,
      isAnalyser: p.isAnalyser,
      inboxCount: 0,
      spamCount: 0,
      missingCount: 0,
      pendingCount: 0,
      seedsUsed: 0,
      notes: [],
    };
    row.seedsUsed += 1;
    if (p.placement === 'inbox') row.inboxCount += 1;
    else if (p.placement === 'spam') row.spamCount += 1;
    else if (p.placement === 'missing') row.missingCount += 1;
    else row.pendingCount += 1;
    const where = p.tab ? `${p.folder ?? 'INBOX'} (${p.tab} tab)` : p.folder;
    for (const note of [where, p.note]) if (note && !row.notes.includes(note)) row.notes.push(note);
    rows.set(key, row);
  }
  return [...rows.values()];
}

/** The stored analysis report of the user's test; undefined until its message arrived, and for another user's test. */
export async function findUserTestReport(
  ex: Executor,
  userId: number,
  testId: number,
): Promise<InboxTestReport | undefined> {
  const [row] = await ex
    .select({ report: inboxTestReports.report })
    .from(inboxTestReports)
    .innerJoin(inboxTests, eq(inboxTests.id, inboxTestReports.testId))
    .where(and(eq(inboxTestReports.testId, testId), eq(inboxTests.userId, userId)));
  return row && InboxTestReport.parse(row.report);
}

/** The latest one-click unsubscribe test of mail from a domain: which test, when its message arrived, and the result. */
export interface LatestOneClickUnsubscribe {
  testId: number;
  receivedAt: string;
  /** The message's From domain: the domain asked for or one of its subdomains. */
  fromDomain: string;
  result: OneClickUnsubscribeResult;
}

/**
 * The user's latest one-click unsubscribe result for mail From `domain` or a subdomain of it (news.brand.com for
 * brand.com); tests that turned it off are passed over. Undefined when no test message of the domain has one.
 */
export async function latestOneClickUnsubscribe(
  ex: Executor,
  userId: number,
  domain: string,
): Promise<LatestOneClickUnsubscribe | undefined> {
  const wanted = domain.toLowerCase().replace(/\.$/, '');
  // The From address the authentication read, as the analysis does: the domain after its last @.
  const fromDomain = sql<string>`lower(regexp_replace(${inboxTestReports.report}->'authentication'->'headerFrom'->>0, '^.*@', ''))`;
  const [row] = await ex
    .select({
      testId: inboxTests.id,
      receivedAt: inboxTests.receivedAt,
      fromDomain,
      result: sql<unknown>`${inboxTestReports.report}->'oneClickUnsubscribe'`,
    })
    .from(inboxTestReports)
    .innerJoin(inboxTests, eq(inboxTests.id, inboxTestReports.testId))
    .where(
      and(
        eq(inboxTests.userId, userId),
        sql`${inboxTestReports.report}->'oneClickUnsubscribe'->>'outcome' <> 'turned_off'`,
        or(sql`${fromDomain} = ${wanted}`, sql`right(${fromDomain}, ${wanted.length + 1}) = ${`.${wanted}`}`),
      ),
    )
    .orderBy(desc(inboxTests.receivedAt), desc(inboxTests.id))
    .limit(1);
  if (!row) return undefined;
  return {
    testId: row.testId,
    receivedAt: row.receivedAt!.toISOString(),
    fromDomain: row.fromDomain,
    result: OneClickUnsubscribeResult.parse(row.result),
  };
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
    .select({
      region: seedMailboxes.region,
      providers: sql<number>`count(distinct ${seedMailboxes.provider})::int`,
      addresses: sql<number>`count(*)::int`,
    })
    .from(seedMailboxes)
    .where(active)
    .groupBy(seedMailboxes.region);
  const [total] = await ex
    .select({ providers: sql<number>`count(distinct ${seedMailboxes.provider})::int` })
    .from(seedMailboxes)
    .where(active);
  const totalAddresses = byRegion.reduce((sum, row) => sum + row.addresses, 0);
  return {
    configured: totalAddresses > 0,
    totalProviders: total?.providers ?? 0,
    totalAddresses,
    byRegion: Object.fromEntries(byRegion.map((row) => [row.region, row.providers])),
  };
}

/** The user's tests and the received messages stored for them (account deletion removes that mail). */
export async function userTestMessages(
  ex: Executor,
  userId: number,
): Promise<{ testIds: number[]; messageIds: number[] }> {
  const rows = await ex
    .select({ id: inboxTests.id, messageId: inboxTests.inboundMessageId })
    .from(inboxTests)
    .where(eq(inboxTests.userId, userId));
  return {
    testIds: rows.map((r) => r.id),
    messageIds: rows.flatMap((r) => (r.messageId === null ? [] : [r.messageId])),
  };
}
