import { and, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { InboxTestReport } from '../../contracts/inbox-tests';
import type { Db } from '../db/client';
import { inboxTestPlacements, inboxTestReports, inboxTests } from '../db/schema/index';
import type { InboundMessage } from '../inbound/inbound.store';
import type { JobContext } from '../jobs/job';
import { AnalysisStoppedError } from './analysis-pool';
import { completeInboxTest } from './inbox-tests.store';
import { detectSendingProvider } from './sending-provider';
import { defaultSubject, parseTestLocalPart, testIdFromSubject } from './test-address';

/** Below this score the analyser, standing in for a seed network, classes the message as spam (ADR 011). */
export const ANALYSER_INBOX_MIN_SCORE = 5;

export interface TestMessageOutcome {
  status: 'processed' | 'failed';
  result: string;
  /** Tests that started running and have seeds to poll. */
  pollSeeds: boolean;
}

/**
 * A message for inbox tests: found by its recipients (a test's own address), else by the subject tag
 * (mail to test@). The first message of a test starts it and is analysed; a later one, or one for a
 * test that has ended, is recorded and not used. Safe to run again for the same message after a crash:
 * the claim accepts a test this message already claimed, and the report is written over.
 */
export async function processTestMessage(ctx: Pick<JobContext, 'db' | 'analyser'>, message: InboundMessage): Promise<TestMessageOutcome> {
  const { db } = ctx;
  const raw = message.raw!;
  const envelope = { remoteIp: message.remoteIp ?? '', helo: message.helo ?? '', mailFrom: message.mailFrom ?? '' };
  let report: InboxTestReport | undefined;

  // Mail to tests' own addresses claims them at once (one statement, the common case).
  const addresses = testAddresses(message.rcptTo);
  let started = addresses.length > 0 ? await claimTests(db, message, inArray(inboxTests.testEmailAddress, addresses)) : [];
  let testIds = started.length === addresses.length ? started : await testsAt(db, addresses);
  if (testIds.length === 0) {
    try {
      report = await ctx.analyser.analyse(raw, envelope);
    } catch (err) {
      if (err instanceof AnalysisStoppedError) return { status: 'failed', result: err.message, pollSeeds: false };
      throw err;
    }
    const tagged = testIdFromSubject(report.content.subject);
    if (tagged === undefined) return { status: 'failed', result: 'No test matched: the message was sent to test@ without a [TEST-<id>] tag in its subject.', pollSeeds: false };
    testIds = [tagged];
    started = await claimTests(db, message, eq(inboxTests.id, tagged));
  }

  const notUsed = testIds.filter((id) => !started.includes(id)).map((id) => `test ${id} already has its message or does not exist`);
  if (started.length === 0) return { status: 'processed', result: `Not used: ${notUsed.join('; ')}.`, pollSeeds: false };

  try {
    report ??= await ctx.analyser.analyse(raw, envelope);
  } catch (err) {
    if (!(err instanceof AnalysisStoppedError)) throw err; // retried by the job
    // The same message would stop the analysis again: its tests fail with the reason.
    await db
      .update(inboxTests)
      .set({ status: 'failed', failureReason: err.message, completedAt: sql`now()` })
      .where(and(inArray(inboxTests.id, started), eq(inboxTests.status, 'running'), eq(inboxTests.inboundMessageId, message.id)));
    return { status: 'failed', result: err.message, pollSeeds: false };
  }
  const analysed = storable(report);
  let pollSeeds = false;
  for (const testId of started) {
    const hasSeeds = await db.transaction(async (tx) => {
      await tx
        .insert(inboxTestReports)
        .values({ testId, score: analysed.score, report: analysed })
        .onConflictDoUpdate({ target: inboxTestReports.testId, set: { score: analysed.score, report: analysed } });
      await tx
        .update(inboxTests)
        .set({ subject: analysed.content.subject || defaultSubject(testId), provider: detectSendingProvider(analysed) })
        .where(eq(inboxTests.id, testId));
      // Without a seed network the analyser is the one placement: classed by the score, and the test is done.
      const classed = await tx
        .update(inboxTestPlacements)
        .set({
          placement: analysed.score >= ANALYSER_INBOX_MIN_SCORE ? 'inbox' : 'spam',
          note: `Classed by the message analysis: ${analysed.score}/10 (${analysed.verdict})`,
          foundAt: new Date(),
        })
        .where(and(eq(inboxTestPlacements.testId, testId), eq(inboxTestPlacements.isAnalyser, true)))
        .returning({ id: inboxTestPlacements.id });
      if (classed.length > 0) {
        await completeInboxTest(tx, testId);
        return false;
      }
      return true;
    });
    pollSeeds ||= hasSeeds;
  }
  const result = [`Started test ${started.join(', ')} (score ${analysed.score}/10)`, ...(notUsed.length ? [`not used: ${notUsed.join('; ')}`] : [])].join('; ');
  return { status: 'processed', result: `${result}.`, pollSeeds };
}

/**
 * PostgreSQL refuses U+0000 in text and jsonb, and a hostile message can carry NULs in any header the
 * report quotes: they become U+FFFD, as a mail client would show them.
 */
function storable(report: InboxTestReport): InboxTestReport {
  return JSON.parse(JSON.stringify(report, (_key, value: unknown) => (typeof value === 'string' ? value.replace(/\0/g, '\uFFFD') : value)));
}

/** The tests' own addresses among the recipients (not test@). */
function testAddresses(rcptTo: string[]): string[] {
  return rcptTo
    .map((a) => a.toLowerCase())
    .filter((a) => {
      const parsed = parseTestLocalPart(a.slice(0, a.lastIndexOf('@')));
      return parsed !== undefined && parsed !== 'generic';
    });
}

/** Ids of the tests with these addresses. */
async function testsAt(db: Db, addresses: string[]): Promise<number[]> {
  if (addresses.length === 0) return [];
  const rows = await db.select({ id: inboxTests.id }).from(inboxTests).where(inArray(inboxTests.testEmailAddress, addresses));
  return rows.map((r) => r.id).sort((a, b) => a - b);
}

/** Moves the tests `which` names to running with this message, unless another message got there first; returns the ids it moved. */
async function claimTests(db: Db, message: InboundMessage, which: SQL): Promise<number[]> {
  const rows = await db
    .update(inboxTests)
    .set({ status: 'running', inboundMessageId: message.id, receivedAt: message.receivedAt })
    .where(
      and(
        which,
        or(eq(inboxTests.status, 'awaiting_email'), and(eq(inboxTests.status, 'running'), eq(inboxTests.inboundMessageId, message.id))),
      ),
    )
    .returning({ id: inboxTests.id });
  return rows.map((r) => r.id).sort((a, b) => a - b);
}
