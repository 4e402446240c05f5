import { eq, inArray, sql } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../platform/context';
import { inboundMessages, inboxTestPlacements, inboxTestReports, inboxTests } from '../platform/db/schema/index';
import { claimInboundMessage, storeInboundMessage } from '../platform/smtp/inbound.repo';
import { startAnalysisPool } from '../engine/message-analysis/analysis-pool';
import type { MessageAnalyser } from '../platform/message-analyser';
import { startDnsServer, type TestDnsServer } from '../test/dns-server';
import { createTestApp, signUp, type TestApp } from '../test/test-app';
import { inboxTestMailbox } from './inbox-test-mailbox';
import { createInboxTest } from './inbox-tests.repo';

/*
 * A message's reports, their placements and the message's own outcome are stored in one transaction: when any of
 * those writes fails, none is left half-done (a report without its placement, a test completed while its message is
 * still waiting to be processed), and the job's retry stores them all. The failures are real ones, raised by a
 * trigger the test plants in the database.
 */

const INBOUND = 'in.inboxpulse.test';
let t: TestApp;
let dns: TestDnsServer;
let analyser: MessageAnalyser;
let userId: number;

beforeAll(async () => {
  // An empty zone: every lookup of the analysis gets a fast NXDOMAIN, so it completes at once.
  dns = await startDnsServer();
  t = await createTestApp({ env: { INBOUND_DOMAIN: INBOUND, DNS_SERVERS: dns.address } });
  analyser = startAnalysisPool({
    dns: { servers: [dns.address], timeoutMs: 2_000, tries: 1 },
    env: { INBOUND_DOMAIN: INBOUND, SPAMD_HOST: undefined },
    threads: 1,
  });
  userId = (await signUp(t.app)).user.id;
});
afterEach(async () => {
  await t.database.db.execute(sql`drop trigger if exists planted_failure on inbound_messages`);
  await t.database.db.execute(sql`drop trigger if exists planted_failure on inbox_test_placements`);
});
afterAll(async () => {
  await analyser?.close();
  await t?.close();
  await dns?.close();
});

/** What the process-inbound-message job hands the inbox-test mailbox. */
const context = () =>
  ({
    db: t.database.db,
    dns: t.dns,
    env: t.env,
    jobs: t.jobs,
    analyser,
    log: pino({ level: 'silent' }),
  }) as unknown as AppContext;

/** A message for these tests, stored as the listener stores it, and claimed as the job claims it. */
async function receivedFor(testIds: number[]) {
  const tests = await t.database.db.select().from(inboxTests).where(inArray(inboxTests.id, testIds));
  const id = await storeInboundMessage(t.database.db, {
    kind: 'inbox_test',
    source: 'smtp',
    remoteIp: '192.0.2.1',
    helo: 'mta.brand.test',
    mailFrom: 'bounce@brand.test',
    rcptTo: tests.map((test) => test.testEmailAddress),
    targetIds: testIds,
    raw: Buffer.from(
      'From: news@brand.test\r\nTo: someone@example.com\r\nSubject: Spring collection\r\n' +
        'Date: Mon, 23 Nov 2026 10:00:00 +0000\r\nMessage-ID: <spring@brand.test>\r\n\r\nHello\r\n',
    ),
  });
  return claimed(id!);
}

/** The message claimed again, as the job's next attempt claims it. */
async function claimed(id: number) {
  const message = (await claimInboundMessage(t.database.db, id))!;
  return { ...message, raw: message.raw! };
}

/** Makes the database refuse a write: the update of `table` rows that `when` (an SQL condition on NEW) picks. */
async function plantFailure(table: 'inbound_messages' | 'inbox_test_placements', when: string) {
  await t.database.db.execute(
    sql.raw(`create or replace function planted_failure() returns trigger language plpgsql as
      $$ begin raise exception 'planted failure'; end $$`),
  );
  await t.database.db.execute(
    sql.raw(`create trigger planted_failure before update on ${table} for each row when (${when})
      execute function planted_failure()`),
  );
}

/** The database's own message of the error a write failed with (drizzle wraps it as its cause). */
const failureOf = (processing: Promise<void>) =>
  processing.then(
    () => 'no failure',
    (error: Error) => (error.cause instanceof Error ? error.cause : error).message,
  );

async function stateOf(testId: number, messageId: number) {
  const [test] = await t.database.db.select().from(inboxTests).where(eq(inboxTests.id, testId));
  const reports = await t.database.db.select().from(inboxTestReports).where(eq(inboxTestReports.testId, testId));
  const [placement] = await t.database.db
    .select()
    .from(inboxTestPlacements)
    .where(eq(inboxTestPlacements.testId, testId));
  const [message] = await t.database.db.select().from(inboundMessages).where(eq(inboundMessages.id, messageId));
  return { status: test.status, reports: reports.length, placement: placement.placement, message: message.status };
}

describe("a test message's outcome", () => {
  it('is stored with its report and placement, or not at all: a failed write of the outcome leaves no report', async () => {
    const test = await createInboxTest(t.database.db, userId, INBOUND);
    const message = await receivedFor([test.id]);
    await plantFailure('inbound_messages', `NEW.id = ${message.id} and NEW.status = 'processed'`);
    expect(await failureOf(inboxTestMailbox.process(context(), message))).toBe('planted failure');
    // Claimed by this message and still waiting for its report, as before the analysis.
    expect(await stateOf(test.id, message.id)).toEqual({
      status: 'running',
      reports: 0,
      placement: null,
      message: 'received',
    });

    // The job's retry stores everything.
    await t.database.db.execute(sql`drop trigger planted_failure on inbound_messages`);
    await inboxTestMailbox.process(context(), await claimed(message.id));
    expect(await stateOf(test.id, message.id)).toMatchObject({
      status: 'completed',
      reports: 1,
      placement: expect.stringMatching(/^(inbox|spam)$/),
      message: 'processed',
    });
  });

  it("of a message for two tests: a failed placement write of the second leaves the first's report unstored too", async () => {
    const [first, second] = [
      await createInboxTest(t.database.db, userId, INBOUND),
      await createInboxTest(t.database.db, userId, INBOUND),
    ];
    const message = await receivedFor([first.id, second.id]);
    await plantFailure('inbox_test_placements', `NEW.test_id = ${second.id} and NEW.placement is not null`);
    expect(await failureOf(inboxTestMailbox.process(context(), message))).toBe('planted failure');
    for (const test of [first, second])
      expect(await stateOf(test.id, message.id)).toEqual({
        status: 'running',
        reports: 0,
        placement: null,
        message: 'received',
      });
  });
});
