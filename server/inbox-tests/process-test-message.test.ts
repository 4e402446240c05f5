import { eq } from 'drizzle-orm';
import { createSocket, type Socket } from 'node:dgram';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { InboxTestReport } from '@contracts/inbox-tests';
import type { Database } from '../platform/db/client';
import { inboxTestReports, inboxTests, users } from '../platform/db/schema/index';
import { claimInboundMessage, storeInboundMessage } from '../platform/smtp/inbound.repo';
import { resolveRecipient } from '../platform/smtp/addresses';
import { openTestDatabase } from '../test/test-database';
import { startLoopbackHttpsSite, type LoopbackHttpsSite } from '../test/loopback-https-site';
import { hasOpenssl } from '../test/self-signed-cert';
import { createResolver, type DnsResolver } from '../platform/dns/resolver';
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
let blackHoleDns: DnsResolver;
let userId: number;
/** Production's guard: no address is let through that is not public. */
const PRODUCTION_OUTBOUND = { OUTBOUND_ALLOW_ADDRESSES: [], OUTBOUND_CA_FILE: undefined };

beforeAll(async () => {
  database = await openTestDatabase();
  blackHole = createSocket('udp4');
  await new Promise<void>((resolve) => blackHole.bind(0, '127.0.0.1', resolve));
  const dns = { servers: [`127.0.0.1:${(blackHole.address() as AddressInfo).port}`], timeoutMs: 60_000, tries: 1 };
  blackHoleDns = createResolver({ ...dns, maxCacheSeconds: 0 });
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

async function received(to: string, subject: string, headers = '') {
  const raw = Buffer.from(
    `From: news@brand.test\r\nTo: ${to}\r\nSubject: ${subject}\r\nDate: Mon, 23 Nov 2026 10:00:00 +0000\r\n${headers}\r\nHello\r\n`,
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
    expect(
      await processTestMessage({ db: database.db, analyser, dns: blackHoleDns, env: PRODUCTION_OUTBOUND }, message),
    ).toEqual({
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
    expect(
      await processTestMessage({ db: database.db, analyser, dns: blackHoleDns, env: PRODUCTION_OUTBOUND }, message),
    ).toEqual({
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

describe.skipIf(!hasOpenssl)("a test message's one-click unsubscribe link (needs openssl for the certificate)", () => {
  const HOST = 'unsubscribe.brand.test';
  let site: LoopbackHttpsSite;
  let pool: MessageAnalyser;
  let caDir: string;
  let posts: { path?: string; headers: IncomingHttpHeaders; body: string }[] = [];
  const ctx = () => ({
    db: database.db,
    analyser: pool,
    dns: site.resolver,
    // As the webhook tests do: the loopback receiver let through, its certificate trusted.
    env: { OUTBOUND_ALLOW_ADDRESSES: ['127.0.0.1'], OUTBOUND_CA_FILE: path.join(caDir, 'ca.pem') },
  });

  beforeAll(async () => {
    site = await startLoopbackHttpsSite(
      HOST,
      (req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (chunk: Buffer) => chunks.push(chunk));
        req.on('end', () => {
          posts.push({ path: req.url, headers: req.headers, body: Buffer.concat(chunks).toString() });
          res.writeHead(202).end();
        });
      },
      { [HOST]: { A: ['127.0.0.1'] } },
    );
    caDir = mkdtempSync(path.join(tmpdir(), 'inboxpulse-ca-'));
    writeFileSync(path.join(caDir, 'ca.pem'), site.ca);
    pool = startAnalysisPool({
      dns: { servers: [site.dns.address], timeoutMs: 1_000, tries: 1 },
      env: { INBOUND_DOMAIN: INBOUND, SPAMD_HOST: undefined },
      threads: 1,
    });
  });
  afterAll(async () => {
    await pool?.close();
    site?.server.closeAllConnections();
    await site?.close();
    if (caDir) rmSync(caDir, { recursive: true, force: true });
  });
  beforeEach(() => {
    posts = [];
  });

  const oneClickHeaders = (token: string) =>
    `List-Unsubscribe: <https://${HOST}:${site.port}/unsubscribe/${token}>\r\nList-Unsubscribe-Post: List-Unsubscribe=One-Click\r\n`;

  async function storedReport(testId: number) {
    const [row] = await database.db.select().from(inboxTestReports).where(eq(inboxTestReports.testId, testId));
    return InboxTestReport.parse(row!.report);
  }

  it("is posted to once the message is analysed, and the link's answer is stored with the test's report", async () => {
    const test = await createInboxTest(database.db, userId, INBOUND);
    const message = await received(test.testEmailAddress, `[TEST-${test.id}] news`, oneClickHeaders('t-1'));
    expect((await processTestMessage(ctx(), message)).status).toBe('processed');
    expect(posts).toEqual([expect.objectContaining({ path: '/unsubscribe/t-1', body: 'List-Unsubscribe=One-Click' })]);
    expect((await storedReport(test.id)).oneClickUnsubscribe).toMatchObject({
      outcome: 'accepted',
      status: 202,
      url: `https://${HOST}:${site.port}/unsubscribe/t-1`,
      redirects: [],
    });
  });

  it('is not posted to when the user turned the test off, and the report says so', async () => {
    const test = await createInboxTest(database.db, userId, INBOUND, undefined, { oneClickUnsubscribeTest: false });
    const message = await received(test.testEmailAddress, `[TEST-${test.id}] news`, oneClickHeaders('t-2'));
    expect((await processTestMessage(ctx(), message)).status).toBe('processed');
    expect(posts).toEqual([]);
    expect((await storedReport(test.id)).oneClickUnsubscribe).toMatchObject({ outcome: 'turned_off', status: null });
  });

  it('reports a message without the one-click header as not offering it, and posts nothing', async () => {
    const test = await createInboxTest(database.db, userId, INBOUND);
    const message = await received(test.testEmailAddress, `[TEST-${test.id}] news`);
    await processTestMessage(ctx(), message);
    expect(posts).toEqual([]);
    expect((await storedReport(test.id)).oneClickUnsubscribe).toMatchObject({
      outcome: 'not_offered',
      hasListUnsubscribe: false,
    });
  });
});
