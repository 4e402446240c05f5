import { eq } from 'drizzle-orm';
import { createSocket, type Socket } from 'node:dgram';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../platform/db/client';
import { inboxTestReports, inboxTests, users } from '../platform/db/schema/index';
import { claimInboundMessage, storeInboundMessage } from '../platform/smtp/inbound.repo';
import { resolveRecipient } from '../platform/smtp/addresses';
import { openTestDatabase } from '../test/test-database';
import { startAnalysisPool } from '../engine/message-analysis/analysis-pool';
import type { MessageAnalyser } from '../platform/message-analyser';
import { inboxTestMailbox } from './inbox-test-mailbox';
import { createInboxTest } from './inbox-tests.repo';
import { analyserPlacement, processTestMessage } from './process-test-message';

/*
 * A message whose analysis is stopped (here: its DNS lookups never get an answer and the limit is 1 s)
 * is not retried, since it would stop again: the message fails with the reason, and so does its test.
 */

const INBOUND = 'in.inboxpulse.test';
let database: Database;
let analyser: MessageAnalyser;
let blackHole: Socket;
let userId: number;

beforeAll(async () => {
  database = await openTestDatabase();
  blackHole = createSocket('udp4');
  await new Promise<void>((resolve) => blackHole.bind(0, '127.0.0.1', resolve));
  const dns = { servers: [`127.0.0.1:${(blackHole.address() as AddressInfo).port}`], timeoutMs: 60_000, tries: 1 };
  analyser = startAnalysisPool({
    dns,
    env: { INBOUND_DOMAIN: INBOUND, SPAMD_HOST: undefined },
    threads: 1,
    timeLimitMs: 1_000,
  });
  [{ id: userId }] = await database.db
    .insert(users)
    .values({ username: 'stopped', email: 'stopped@example.com', passwordHash: 'x' })
    .returning();
});
afterAll(async () => {
  await analyser?.close();
  blackHole?.close();
  await database?.close();
});

async function received(to: string, subject: string) {
  const raw = Buffer.from(
    `From: news@brand.test\r\nTo: ${to}\r\nSubject: ${subject}\r\nDate: Mon, 23 Nov 2026 10:00:00 +0000\r\n\r\nHello\r\n`,
  );
  // Resolved as the listener resolves it at RCPT time.
  const recipient = await resolveRecipient(database.db, to, { INBOUND_DOMAIN: INBOUND }, [inboxTestMailbox]);
  if (typeof recipient === 'string') throw new Error(`${to}: ${recipient}`);
  const targetIds = recipient.targetId === null ? [] : [recipient.targetId];
  const id = await storeInboundMessage(database.db, {
    kind: 'inbox_test',
    source: 'smtp',
    remoteIp: '192.0.2.1',
    helo: 'mta.brand.test',
    mailFrom: 'bounce@brand.test',
    rcptTo: [to],
    targetIds,
    raw,
  });
  return (await claimInboundMessage(database.db, id!))!;
}

const STOPPED = 'The message analysis took longer than 1 s and was stopped.';

describe('a message whose analysis is stopped', () => {
  it('fails, and fails the test it started, with the reason', async () => {
    const test = await createInboxTest(database.db, userId, INBOUND);
    const message = await received(test.testEmailAddress, `[TEST-${test.id}] hello`);
    expect(await processTestMessage({ db: database.db, analyser }, message)).toEqual({
      status: 'failed',
      result: STOPPED,
      pollSeeds: false,
    });
    const [row] = await database.db.select().from(inboxTests).where(eq(inboxTests.id, test.id));
    expect(row).toMatchObject({ status: 'failed', failureReason: STOPPED, inboundMessageId: message.id });
    expect(row.completedAt).not.toBeNull();
    expect(await database.db.select().from(inboxTestReports).where(eq(inboxTestReports.testId, test.id))).toEqual([]);
  });

  it('a message that names no test (stored for test@ before it was retired) fails without touching the test its subject names', async () => {
    const test = await createInboxTest(database.db, userId, INBOUND);
    const raw = Buffer.from(
      `From: news@brand.test\r\nTo: test@${INBOUND}\r\nSubject: [TEST-${test.id}] hello\r\n\r\nHello\r\n`,
    );
    const id = await storeInboundMessage(database.db, {
      kind: 'inbox_test',
      source: 'smtp',
      rcptTo: [`test@${INBOUND}`],
      targetIds: [],
      raw,
    });
    const message = (await claimInboundMessage(database.db, id!))!;
    expect(await processTestMessage({ db: database.db, analyser }, message)).toEqual({
      status: 'failed',
      result: "No test matched: the message was not sent to a test's own address.",
      pollSeeds: false,
    });
    const [row] = await database.db.select().from(inboxTests).where(eq(inboxTests.id, test.id));
    expect(row.status).toBe('awaiting_email');
  });
});

describe("the analyser's placement", () => {
  const spamAssassin = (isSpam: boolean) => ({ score: isSpam ? 7 : 1, threshold: 5, isSpam, rules: [], error: null });

  it('is the inbox from a score of 5 and spam below it', () => {
    expect(analyserPlacement({ score: 5, verdict: 'Needs work', spamAssassin: null }).placement).toBe('inbox');
    expect(analyserPlacement({ score: 4.9, verdict: 'Poor', spamAssassin: null }).placement).toBe('spam');
  });

  it('is never the inbox when SpamAssassin calls the message spam, whatever our score, and the note says why', () => {
    expect(analyserPlacement({ score: 6.2, verdict: 'Needs work', spamAssassin: spamAssassin(true) })).toEqual({
      placement: 'spam',
      note: 'Classed by the message analysis: 6.2/10 (Needs work); SpamAssassin says spam (7 / 5)',
    });
    expect(analyserPlacement({ score: 6.2, verdict: 'Needs work', spamAssassin: spamAssassin(false) }).placement).toBe(
      'inbox',
    );
  });
});
