import { eq, sql } from 'drizzle-orm';
import { generateKeyPairSync } from 'node:crypto';
import nodemailer, { type SendMailOptions } from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InboxTest, InboxTestReport, InboxTestResultRow } from '@contracts/inbox-tests';
import type { Alert } from '@contracts/alerts';
import {
  domains,
  inboundMessages,
  inboxTestPlacements,
  inboxTestReports,
  inboxTests,
} from '../platform/db/schema/index';
import { type SmtpListener } from '../platform/smtp/smtp-listener';
import { startDnsServer, type TestDnsServer } from '../test/dns-server';
import { createTestApp, startTestSmtpListener, signUp, type TestApp, type TestClient } from '../test/test-app';
import { maintenanceJob } from '../maintenance.job';
import { setPlan } from '../api-keys/api-keys.test-support';
import { caughtUp } from '../test/caught-up';
import { waitUntil } from '../test/wait-until';

/*
 * The whole inbox-test flow without a seed network, over real SMTP on loopback: a user creates a
 * test, a DKIM-signed message reaches the listener, the message is analysed against the loopback DNS
 * zone, and the test completes with the product's own analyser as its one placement.
 */

const INBOUND = 'in.inboxpulse.test';
const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const publicDer = publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
const privatePem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();

let t: TestApp;
let smtp: SmtpListener;
let dns: TestDnsServer;
let user: TestClient;
let stranger: TestClient;

/**
 * Sends as `domain` from 127.0.0.1, DKIM-signed with the key the zone publishes for it (selector s1)
 * unless `sign` is false; a `raw` message is relayed as it is.
 */
function send(domain: string, mail: SendMailOptions, sign = true) {
  const transport = nodemailer.createTransport({
    host: '127.0.0.1',
    port: smtp.port,
    secure: false,
    ignoreTLS: true,
    name: `mta.${domain}`,
    ...(sign ? { dkim: { domainName: domain, keySelector: 's1', privateKey: privatePem } } : {}),
  });
  return transport
    .sendMail({ from: `News <news@${domain}>`, envelope: { from: `bounce@${domain}`, to: mail.to as string }, ...mail })
    .finally(() => transport.close());
}

const testsOf = async (client: TestClient) => (await client.get('/api/inbox-tests')).json() as InboxTest[];
const testById = async (client: TestClient, id: number) => (await testsOf(client)).find((x) => x.id === id)!;
const completed = (client: TestClient, id: number) =>
  waitUntil(() => testById(client, id), `test ${id} to complete`, {
    until: (test) => test.status === 'completed',
    timeoutMs: 20_000,
  });
const queuedId = (response: string) => Number(/Queued as (\d+)/.exec(response)![1]);
const messageRow = async (id: number) =>
  (await t.database.db.select().from(inboundMessages).where(eq(inboundMessages.id, id)))[0]!;
const processed = (id: number) =>
  waitUntil(() => messageRow(id), `message ${id} to be processed`, {
    until: (row) => row.status !== 'received',
    timeoutMs: 20_000,
  });

async function createTest(client: TestClient): Promise<InboxTest> {
  const response = await client.post('/api/inbox-tests', { testType: 'automatic' });
  expect(response.statusCode).toBe(200);
  return response.json();
}

beforeAll(async () => {
  dns = await startDnsServer({
    // Aligned sender: SPF allows loopback, DKIM key published, DMARC reject.
    'brand-sender.com': { TXT: ['v=spf1 ip4:127.0.0.1 -all'] },
    's1._domainkey.brand-sender.com': { TXT: [`v=DKIM1; k=rsa; p=${publicDer}`] },
    '_dmarc.brand-sender.com': { TXT: ['v=DMARC1; p=reject'] },
    // Forward-confirmed reverse DNS for the loopback address the test mail comes from.
    '1.0.0.127.in-addr.arpa': { PTR: ['mta.brand-sender.com'] },
    'mta.brand-sender.com': { A: ['127.0.0.1'] },
    // A sender whose SPF does not list the IP it sends from, and who has no DMARC record.
    'careless-sender.com': { TXT: ['v=spf1 ip4:192.0.2.1 -all'] },
    's1._domainkey.careless-sender.com': { TXT: [`v=DKIM1; k=rsa; p=${publicDer}`] },
  });
  t = await createTestApp({
    work: true,
    env: { INBOUND_DOMAIN: INBOUND, DNS_SERVERS: dns.address, SMTP_MAX_MESSAGE_BYTES: String(300 * 1024) },
  });
  smtp = await startTestSmtpListener(t);
  const signedUp = await signUp(t.app);
  user = signedUp.client;
  // More tests than Free's 10 a month (ADR 032): the flow, not the allowance, is under test here.
  await setPlan(t, signedUp.user.id, 'professional');
  await caughtUp(t);
  stranger = (await signUp(t.app)).client;
});
afterAll(async () => {
  await smtp?.close();
  await t?.close();
  await dns?.close();
});

describe('creating an inbox test', () => {
  it('needs a domain that passes its DNS checks', async () => {
    const refused = await user.post('/api/inbox-tests', { testType: 'automatic' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe('Add and verify at least one domain to start testing');

    const { id } = (await user.post('/api/domains', { domain: 'brand-sender.com' })).json();
    // The DNS checks that make a domain healthy are covered by the domain tests.
    await t.database.db.update(domains).set({ status: 'healthy', isVerified: true }).where(eq(domains.id, id));
  });

  it('answers 400 to a missing or wrong body and creates nothing', async () => {
    for (const body of [undefined, {}, { testType: 'manual' }, { testType: 7 }]) {
      const response = await user.post('/api/inbox-tests', body as object);
      expect(response.statusCode).toBe(400);
    }
    expect(await testsOf(user)).toEqual([]);
  });

  it('gives a test its own address, subject tag and default subject, and the analyser as its placement', async () => {
    const test = await createTest(user);
    expect(test).toMatchObject({
      status: 'awaiting_email',
      testType: 'automatic',
      subject: `Inbox Test ${test.id}`,
      subjectTag: `[TEST-${test.id}]`,
      seedAddresses: [],
      totalSeeds: 1,
      score: null,
    });
    expect(test.testEmailAddress).toMatch(
      new RegExp(`^test-${test.id}-[0-9a-f]{16}@${INBOUND.replace(/\./g, '\\.')}$`),
    );
    const rows = (await user.get(`/api/inbox-tests/${test.id}/results`)).json() as InboxTestResultRow[];
    expect(rows).toEqual([expect.objectContaining({ isAnalyser: true, seedsUsed: 1, pendingCount: 1, inboxCount: 0 })]);
    expect((await user.get(`/api/inbox-tests/${test.id}/report`)).statusCode).toBe(404);
    // Another user sees none of it.
    expect((await stranger.get(`/api/inbox-tests/${test.id}/results`)).statusCode).toBe(404);
    expect(await testsOf(stranger)).toEqual([]);
  });
});

describe('a test message over SMTP', () => {
  it('runs the test, analyses the message and completes it with the analyser placement', async () => {
    const test = await createTest(user);
    const info = await send('brand-sender.com', {
      to: test.testEmailAddress,
      subject: `${test.subjectTag} Spring sale`,
      text: 'Our spring collection is here. Unsubscribe: https://brand-sender.com/u',
      html: '<p>Our spring collection is here.</p><p><a href="https://brand-sender.com/spring">See it</a></p>',
      list: { unsubscribe: { url: 'https://brand-sender.com/u', comment: 'Unsubscribe' } },
      headers: { 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
    });
    expect(info.response).toMatch(/^250 /);

    const done = await completed(user, test.id);
    expect(done).toMatchObject({
      subject: `${test.subjectTag} Spring sale`,
      inboxCount: 1,
      spamCount: 0,
      missingCount: 0,
      totalSeeds: 1,
    });
    expect(done.receivedAt).not.toBeNull();
    const report = (await user.get(`/api/inbox-tests/${test.id}/report`)).json() as InboxTestReport;
    expect(report.simulated).toBe(false);
    expect(report.envelope).toMatchObject({
      remoteIp: expect.stringContaining('127.0.0.1'),
      helo: 'mta.brand-sender.com',
      mailFrom: 'bounce@brand-sender.com',
    });
    expect(report.authentication?.spf.result).toBe('pass');
    expect(report.authentication?.dkim).toEqual([
      expect.objectContaining({ domain: 'brand-sender.com', result: 'pass', aligned: true }),
    ]);
    expect(report.authentication?.dmarc).toMatchObject({ result: 'pass', policy: 'reject' });
    expect(report.score).toBeGreaterThanOrEqual(9);
    expect(done.score).toBe(report.score);
    const [row] = (await user.get(`/api/inbox-tests/${test.id}/results`)).json() as InboxTestResultRow[];
    expect(row).toMatchObject({ isAnalyser: true, inboxCount: 1, pendingCount: 0, seedsUsed: 1 });
    expect(row!.notes.join(' ')).toContain(`${report.score}/10`);
  });

  it('explains what is wrong with a message sent from an IP its SPF does not list, with no DMARC', async () => {
    const test = await createTest(user);
    await send('careless-sender.com', {
      to: test.testEmailAddress,
      subject: `${test.subjectTag} hello`,
      text: 'Hello there.',
    });
    await completed(user, test.id);
    const report = (await user.get(`/api/inbox-tests/${test.id}/report`)).json() as InboxTestReport;
    expect(report.authentication?.spf.result).toBe('fail');
    expect(report.authentication?.dmarc?.result ?? 'none').toBe('none');
    const authDeductions = report.findings.filter((f) => f.category === 'authentication' && f.deduction > 0);
    expect(authDeductions.length).toBeGreaterThanOrEqual(2);
    expect(authDeductions.every((f) => f.fix)).toBe(true);
    expect(report.deductions.map((d) => d.id)).toEqual(expect.arrayContaining(authDeductions.map((f) => f.id)));
    expect(report.score).toBeLessThan(9);
  });

  it('sees a body changed after signing', async () => {
    const test = await createTest(user);
    const transport = nodemailer.createTransport({
      streamTransport: true,
      buffer: true,
      dkim: { domainName: 'brand-sender.com', keySelector: 's1', privateKey: privatePem },
    });
    const { message } = await transport.sendMail({
      from: 'news@brand-sender.com',
      to: test.testEmailAddress,
      subject: `Re-send ${test.subjectTag}`,
      text: 'Original body.',
    });
    const tampered = (message as Buffer).toString().replace('Original body.', 'Changed body.');
    await send('brand-sender.com', { to: test.testEmailAddress, raw: tampered }, false);

    await completed(user, test.id);
    const report = (await user.get(`/api/inbox-tests/${test.id}/report`)).json() as InboxTestReport;
    // RFC 8601 2.7.1: a signature whose body hash does not verify is fail.
    expect(report.authentication?.dkim[0]).toMatchObject({ domain: 'brand-sender.com', result: 'fail' });
    expect(
      report.findings.some((f) => f.category === 'authentication' && f.deduction > 0 && /DKIM/i.test(f.title)),
    ).toBe(true);
  });

  it('places a classic spam body in spam even when it is signed, aligned and sent from a well-run IP', async () => {
    const test = await createTest(user);
    await send('brand-sender.com', {
      to: test.testEmailAddress,
      subject: `${test.subjectTag} A quick note for you`,
      headers: {
        'List-Unsubscribe': '<https://brand-sender.com/u>',
        'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
      },
      text: [
        'Dear Friend,',
        'Our members make money from home with no experience needed, and many earn $5,000 per week in extra income.',
        'Act now: this offer is for a limited time only. Reply within 24 hours to secure your spot.',
        'As a special bonus: Viagra and Cialis at the lowest prices online, no prescription needed from our online pharmacy.',
        'Guaranteed results, 100% risk free.',
      ].join('\n\n'),
    });
    const done = await completed(user, test.id);
    expect(done).toMatchObject({ inboxCount: 0, spamCount: 1 });
    const report = (await user.get(`/api/inbox-tests/${test.id}/report`)).json() as InboxTestReport;
    expect(report.authentication?.dmarc).toMatchObject({ result: 'pass' });
    expect(report.findings.map((f) => f.id)).toEqual(
      expect.arrayContaining([
        'content.spam-pharmacy',
        'content.spam-money-claims',
        'content.spam-impersonal-greeting',
      ]),
    );
    expect(report.score).toBeLessThan(5);
  });

  it('places a message with two From header fields in spam: receivers such as Gmail reject it', async () => {
    const test = await createTest(user);
    const transport = nodemailer.createTransport({ streamTransport: true, buffer: true });
    const { message } = await transport.sendMail({
      from: 'News <news@brand-sender.com>',
      to: test.testEmailAddress,
      subject: `${test.subjectTag} Invoice`,
      text: 'Your invoice is attached.',
    });
    const twoFroms = `From: billing@brand-sender.com\r\n${(message as Buffer).toString()}`;
    await send('brand-sender.com', { to: test.testEmailAddress, raw: twoFroms }, false);

    const done = await completed(user, test.id);
    expect(done).toMatchObject({ inboxCount: 0, spamCount: 1 });
    const report = (await user.get(`/api/inbox-tests/${test.id}/report`)).json() as InboxTestReport;
    expect(report.findings.find((f) => f.id === 'authentication.from-fields')).toMatchObject({
      severity: 'error',
      title: 'The message has 2 From header fields',
    });
    expect(report.score).toBeLessThan(5);
    // The completed test is evaluated at once: none of its one placement reached the inbox.
    const alerts = await waitUntil(
      async () => (await user.get('/api/alerts')).json() as Alert[],
      'the evaluation to raise the inbox placement alert',
      {
        until: (list) => list.some((a) => a.type === 'deliverability_drop'),
        timeoutMs: 20_000,
      },
    );
    expect(alerts.find((a) => a.type === 'deliverability_drop')).toMatchObject({
      severity: 'critical',
      title: expect.stringMatching(/ fell to 0%$/),
    });
  });

  it('resolves the tests a message is addressed to when it accepts it, stores them with it, and starts each one', async () => {
    const [first, second] = [await createTest(user), await createTest(user)];
    const info = await send('brand-sender.com', {
      to: [second.testEmailAddress.toUpperCase(), first.testEmailAddress],
      subject: 'Two tests at once',
      text: 'Hello.',
    });
    const row = await processed(queuedId(info.response));
    expect(row.targetIds).toEqual([first.id, second.id].sort((a, b) => a - b));
    expect(row.result).toContain('Started test');
    for (const test of [first, second])
      expect(await completed(user, test.id)).toMatchObject({ subject: 'Two tests at once', totalSeeds: 1 });
  });

  it('does not let a second message overwrite a completed test', async () => {
    const test = await createTest(user);
    await send('brand-sender.com', { to: test.testEmailAddress, subject: `${test.subjectTag} first`, text: 'First.' });
    const first = await completed(user, test.id);
    const again = await send('careless-sender.com', {
      to: test.testEmailAddress,
      subject: `${test.subjectTag} second`,
      text: 'Second.',
    });
    const row = await processed(queuedId(again.response));
    expect(row).toMatchObject({ status: 'processed', result: expect.stringContaining('Not used') });
    expect(await testById(user, test.id)).toMatchObject({
      subject: first.subject,
      score: first.score,
      status: 'completed',
    });
  });

  it("refuses an address that names no test, and test@: nobody starts another user's test by its subject tag", async () => {
    const test = await createTest(user);
    const wrongToken = test.testEmailAddress.replace(/-[0-9a-f]{16}@/, '-0000000000000000@');
    await expect(send('brand-sender.com', { to: wrongToken, subject: 'x', text: 'x' })).rejects.toMatchObject({
      responseCode: 550,
    });
    await expect(
      send('brand-sender.com', { to: `test-999999-abcdef0123456789@${INBOUND}`, subject: 'x', text: 'x' }),
    ).rejects.toMatchObject({
      responseCode: 550,
    });
    for (const to of [`test@${INBOUND}`, `test+x@${INBOUND}`]) {
      await expect(
        send('careless-sender.com', { to, subject: `${test.subjectTag} hijack`, text: 'x' }),
      ).rejects.toMatchObject({ responseCode: 550 });
    }
    expect((await testById(user, test.id)).status).toBe('awaiting_email');
  });
});

describe('the end of a test', () => {
  it('fails a test whose message never came within 24 hours, with the reason', async () => {
    const test = await createTest(user);
    await t.database.db
      .update(inboxTests)
      .set({ createdAt: sql`now() - interval '25 hours'` })
      .where(eq(inboxTests.id, test.id));
    await t.jobs.send(maintenanceJob, {});
    const failed = await waitUntil(() => testById(user, test.id), 'the abandoned test to fail', {
      until: (now) => now.status === 'failed',
      timeoutMs: 20_000,
    });
    expect(failed.failureReason).toBe('No e-mail reached the test address within 24 hours.');
  });

  it('deletes a test with its placements and report, for its owner only', async () => {
    const test = await createTest(user);
    await send('brand-sender.com', { to: test.testEmailAddress, subject: `${test.subjectTag} bye`, text: 'Bye.' });
    await completed(user, test.id);
    expect((await stranger.delete(`/api/inbox-tests/${test.id}`)).statusCode).toBe(404);
    expect((await user.delete(`/api/inbox-tests/${test.id}`)).statusCode).toBe(204);
    const db = t.database.db;
    expect(await db.select().from(inboxTestPlacements).where(eq(inboxTestPlacements.testId, test.id))).toEqual([]);
    expect(await db.select().from(inboxTestReports).where(eq(inboxTestReports.testId, test.id))).toEqual([]);
    expect((await user.get(`/api/inbox-tests/${test.id}/results`)).statusCode).toBe(404);
  });
});
