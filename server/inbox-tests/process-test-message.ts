import type { InboxTestReport } from '@contracts/inbox-tests';
import type { Executor } from '../platform/db/client';
import { finishInboundMessage, type InboundMessage } from '../platform/smtp/inbound.repo';
import type { AppContext } from '../platform/context';
import { AnalysisStoppedError } from '../engine/message-analysis/analysis-pool';
import { appOutboundGuard } from '../platform/security/app-outbound-guard';
import { oneClickTurnedOff, testOneClickUnsubscribe } from './one-click-unsubscribe';
import { detectSendingProvider } from './sending-provider';
import { defaultSubject } from './test-address';
import { claimTestsForMessage, failTestsOfMessage, recordTestReport } from './inbox-tests.repo';

/** Below this score the analyser, standing in for a seed network, classes the message as spam (ADR 011). */
export const ANALYSER_INBOX_MIN_SCORE = 5;

/**
 * Where the analyser, standing in for a seed network, places the message: the inbox from a score of
 * 5, but never when SpamAssassin calls it spam. Its verdict is what many receivers run; a message it
 * junks is not in the inbox there, however few points our own checks take off (ADR 019).
 */
export function analyserPlacement(report: Pick<InboxTestReport, 'score' | 'verdict' | 'spamAssassin'>): {
  placement: 'inbox' | 'spam';
  note: string;
} {
  const spamAssassin = report.spamAssassin;
  const classed = `Classed by the message analysis: ${report.score}/10 (${report.verdict})`;
  if (spamAssassin?.isSpam)
    return {
      placement: 'spam',
      note: `${classed}; SpamAssassin says spam (${spamAssassin.score} / ${spamAssassin.threshold})`,
    };
  return { placement: report.score >= ANALYSER_INBOX_MIN_SCORE ? 'inbox' : 'spam', note: classed };
}

export interface TestMessageOutcome {
  status: 'processed' | 'failed';
  result: string;
  /** Tests that started running and have seeds to poll. */
  pollSeeds: boolean;
  /** The owners of tests this message completed (no seeds to wait for): their alert conditions change. */
  completedFor?: number[];
}

/**
 * A message for inbox tests: for the tests its recipients named (their own unguessable addresses,
 * resolved when the listener accepted them; ADR 012). The first message of a test starts it and is
 * analysed; a later one, or one for a test that has ended, is recorded and not used. Safe to run again for the same
 * message after a crash: the claim accepts a test this message already claimed, and the report is written over.
 * After the analysis, which runs in a thread with no network, the message's one-click unsubscribe link is tried
 * here (the RFC 8058 POST, through the outbound guard) for the tests that did not turn it off. Stores the message's
 * outcome (finishInboundMessage) with what it changed, and answers it.
 */
export async function processTestMessage(
  ctx: Pick<AppContext, 'db' | 'analyser' | 'dns'> & { env: Parameters<typeof appOutboundGuard>[0] },
  message: InboundMessage,
): Promise<TestMessageOutcome> {
  const { db } = ctx;
  const raw = message.raw!;
  const envelope = {
    remoteIp: message.remoteIp ?? '',
    helo: message.helo ?? '',
    mailFrom: message.mailFrom ?? '',
    tls: message.tls,
  };
  let report: InboxTestReport;

  const testIds = message.targetIds;
  // Only a message stored before test@ was retired (ADR 012) names no test.
  if (testIds.length === 0)
    return finish(db, message.id, {
      status: 'failed',
      result: "No test matched: the message was not sent to a test's own address.",
      pollSeeds: false,
    });
  const started = await claimTestsForMessage(db, testIds, message);

  const notUsed = testIds
    .filter((id) => !started.some((test) => test.id === id))
    .map((id) => `test ${id} already has its message or does not exist`);
  if (started.length === 0)
    return finish(db, message.id, {
      status: 'processed',
      result: `Not used: ${notUsed.join('; ')}.`,
      pollSeeds: false,
    });

  try {
    report = await ctx.analyser.analyse(raw, envelope);
  } catch (err) {
    if (!(err instanceof AnalysisStoppedError)) throw err; // retried by the job
    const stopped = err.message;
    // The same message would stop the analysis again: its tests fail with the reason.
    return db.transaction(async (tx) => {
      await failTestsOfMessage(
        tx,
        started.map((test) => test.id),
        message.id,
        stopped,
      );
      return finish(tx, message.id, { status: 'failed', result: stopped, pollSeeds: false });
    });
  }
  const analysed = storable(report);
  // One POST for all the tests this message started (a re-run after a crash posts again: unsubscribing twice is harmless).
  const oneClick = started.some((test) => test.oneClickUnsubscribeTest)
    ? await testOneClickUnsubscribe(appOutboundGuard(ctx.env, ctx.dns), analysed.content)
    : undefined;
  const result = [
    `Started test ${started.map((test) => test.id).join(', ')} (score ${analysed.score}/10)`,
    ...(notUsed.length ? [`not used: ${notUsed.join('; ')}`] : []),
  ].join('; ');
  // The reports, their placements and the message's outcome in one transaction (one commit a message): either all
  // are stored or none, and a retry finds the tests still running with this message and stores them again.
  return db.transaction(async (tx) => {
    let pollSeeds = false;
    const completedFor = new Set<number>();
    for (const test of started) {
      const recorded = await recordReport(tx, test.id, {
        ...analysed,
        oneClickUnsubscribe: test.oneClickUnsubscribeTest && oneClick ? oneClick : oneClickTurnedOff(analysed.content),
      });
      pollSeeds = recorded.hasSeeds || pollSeeds;
      if (!recorded.hasSeeds && recorded.userId !== null) completedFor.add(recorded.userId);
    }
    return finish(tx, message.id, {
      status: 'processed',
      result: `${result}.`,
      pollSeeds,
      completedFor: [...completedFor],
    });
  });
}

/** Stores the message's outcome (finishInboundMessage) and answers it. */
async function finish(ex: Executor, messageId: number, outcome: TestMessageOutcome): Promise<TestMessageOutcome> {
  await finishInboundMessage(ex, messageId, { status: outcome.status, result: outcome.result });
  return outcome;
}

/** Records a started test's report; without a seed network the analyser's placement stands (recordTestReport). */
async function recordReport(
  ex: Executor,
  testId: number,
  report: InboxTestReport,
): Promise<{ hasSeeds: boolean; userId: number | null }> {
  const classed = analyserPlacement(report);
  return recordTestReport(ex, testId, report, {
    subject: report.content.subject || defaultSubject(testId),
    provider: detectSendingProvider(report),
    analyserPlacement: classed.placement,
    analyserNote: classed.note,
  });
}

/**
 * PostgreSQL refuses U+0000 in text and jsonb, and a hostile message can carry NULs in any header the
 * report quotes: they become U+FFFD, as a mail client would show them.
 */
function storable(report: InboxTestReport): InboxTestReport {
  return JSON.parse(
    JSON.stringify(report, (_key, value: unknown) =>
      typeof value === 'string' ? value.replace(/\0/g, '\uFFFD') : value,
    ),
  );
}
