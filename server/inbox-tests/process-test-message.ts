import { and, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { InboxTestReport } from '../../contracts/inbox-tests';
import type { Db } from '../platform/db/client';
import { inboxTestPlacements, inboxTestReports, inboxTests } from '../platform/db/schema/index';
import type { InboundMessage } from '../platform/smtp/inbound.repo';
import type { AppContext } from '../platform/context';
import { AnalysisStoppedError } from '../platform/message-analysis/analysis-pool';
import { detectSendingProvider } from './sending-provider';
import { defaultSubject, testIdFromSubject } from './test-address';

/** Below this score the analyser, standing in for a seed network, classes the message as spam (ADR 011). */
export const ANALYSER_INBOX_MIN_SCORE = 5;

export interface TestMessageOutcome {
  status: 'processed' | 'failed';
  result: string;
  /** Tests that started running and have seeds to poll. */
  pollSeeds: boolean;
}

/**
 * A message for inbox tests: for the tests its recipients named (their own addresses, resolved when
 * the listener accepted them), else the test its subject tag names (mail to test@). The first message of a test starts it and is analysed; a later one, or one for a
 * test that has ended, is recorded and not used. Safe to run again for the same message after a crash:
 * the claim accepts a test this message already claimed, and the report is written over.
 */
export async function processTestMessage(ctx: Pick<AppContext, 'db' | 'analyser'>, message: InboundMessage): Promise<TestMessageOutcome> {
  const { db } = ctx;
  const raw = message.raw!;
  const envelope = { remoteIp: message.remoteIp ?? '', helo: message.helo ?? '', mailFrom: message.mailFrom ?? '' };
  let report: InboxTestReport | undefined;

  // Mail to tests' own addresses claims them at once (one statement, the common case).
  let testIds = message.targetIds;
  let started = testIds.length > 0 ? await claimTests(db, message, inArray(inboxTests.id, testIds)) : [];
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
  for (const testId of started) pollSeeds = (await recordReport(db, testId, analysed)) || pollSeeds;
  const result = [`Started test ${started.join(', ')} (score ${analysed.score}/10)`, ...(notUsed.length ? [`not used: ${notUsed.join('; ')}`] : [])].join('; ');
  return { status: 'processed', result: `${result}.`, pollSeeds };
}

/**
 * Records a started test's report, in one statement (one round trip and one commit; this runs for
 * every message): the report (written over on a re-run), the test's subject and sending provider,
 * and, without a seed network, the analyser's placement classed by the score. That was the test's
 * one placement, so the test is complete (completeInboxTest's work, for a test that has nothing
 * pending; nothing else changes a running test without seeds). Returns whether it has seeds to poll.
 */
async function recordReport(db: Db, testId: number, report: InboxTestReport): Promise<boolean> {
  const placement = report.score >= ANALYSER_INBOX_MIN_SCORE ? 'inbox' : 'spam';
  const note = `Classed by the message analysis: ${report.score}/10 (${report.verdict})`;
  const result = (await db.execute(sql`
    with stored as (
      insert into ${inboxTestReports} (test_id, score, report) values (${testId}, ${report.score}, ${JSON.stringify(report)}::jsonb)
      on conflict (test_id) do update set score = excluded.score, report = excluded.report
    ), classed as (
      update ${inboxTestPlacements} set placement = ${placement}, note = ${note}, found_at = now()
      where test_id = ${testId} and is_analyser
      returning placement
    )
    update ${inboxTests} t set
      subject = ${report.content.subject || defaultSubject(testId)},
      provider = ${detectSendingProvider(report)},
      status = case when c.placement is null then t.status else 'completed' end,
      inbox_count = case when c.placement is null then t.inbox_count else (c.placement = 'inbox')::int end,
      spam_count = case when c.placement is null then t.spam_count else (c.placement = 'spam')::int end,
      total_seeds = case when c.placement is null then t.total_seeds else 1 end,
      completed_at = case when c.placement is null then t.completed_at else now() end
    from (select (select placement from classed) as placement) c
    where t.id = ${testId}
    returning c.placement is null as "hasSeeds"`)) as unknown as { rows: { hasSeeds: boolean }[] };
  return result.rows[0]?.hasSeeds ?? false;
}

/**
 * PostgreSQL refuses U+0000 in text and jsonb, and a hostile message can carry NULs in any header the
 * report quotes: they become U+FFFD, as a mail client would show them.
 */
function storable(report: InboxTestReport): InboxTestReport {
  return JSON.parse(JSON.stringify(report, (_key, value: unknown) => (typeof value === 'string' ? value.replace(/\0/g, '\uFFFD') : value)));
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
