import { eq, sql } from 'drizzle-orm';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InboxTest, InboxTestReport, OneClickUnsubscribeResult } from '@contracts/inbox-tests';
import { domains, inboxTestPlacements, inboxTestReports, inboxTests } from '../platform/db/schema/index';
import { createTestApp, signUp, TestClient, type TestApp } from '../test/test-app';
import { latestOneClickUnsubscribe } from './inbox-tests.service';

// The inbox-test API on rows the test puts in place; the whole flow over SMTP is in inbox-test-flow.test.ts.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

/** A signed-in user with a domain that passes its checks, so they may create tests. */
async function sender(): Promise<{ client: TestClient; userId: number }> {
  const { client, user } = await signUp(t.app);
  await t.database.db
    .insert(domains)
    .values({ userId: user.id, domain: `brand-${user.id}.test`, verificationToken: 'token', status: 'healthy' });
  return { client, userId: user.id };
}

async function createTest(client: TestClient): Promise<InboxTest> {
  const response = await client.post('/api/inbox-tests', { testType: 'automatic' });
  expect(response.statusCode).toBe(200);
  return response.json();
}

/** A report as the product writes one, made by its simulator (the tests store it as a test's report). */
const simulatedReport = async (client: TestClient) =>
  (
    await client.post('/api/simulate-email', { fromEmail: 'news@brand.test', subject: 'Hello', content: 'Hi there' })
  ).json() as InboxTestReport;

const idsOf = async (client: TestClient) =>
  ((await client.get('/api/inbox-tests')).json() as InboxTest[]).map((test) => test.id);

describe('inbox tests API', () => {
  it('creates a test only for a user with a healthy domain', async () => {
    const { client, user } = await signUp(t.app);
    const refused = await client.post('/api/inbox-tests', { testType: 'automatic' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe('Add and verify at least one domain to start testing');
    await t.database.db
      .insert(domains)
      .values({ userId: user.id, domain: 'pending-brand.test', verificationToken: 'token' });
    expect((await client.post('/api/inbox-tests', { testType: 'automatic' })).statusCode).toBe(409);

    const owner = await sender();
    const test = await createTest(owner.client);
    expect(test).toMatchObject({ status: 'awaiting_email', totalSeeds: 1 });
    expect(await idsOf(owner.client)).toEqual([test.id]);
    expect(await idsOf(client)).toEqual([]);
  });

  it('shows one test to its owner (GET /api/inbox-tests/:id) and answers 404 to anyone else', async () => {
    const owner = await sender();
    const stranger = await sender();
    const test = await createTest(owner.client);
    const shown = await owner.client.get(`/api/inbox-tests/${test.id}`);
    expect(shown.statusCode).toBe(200);
    expect(shown.json()).toEqual(test);

    const foreign = await stranger.client.get(`/api/inbox-tests/${test.id}`);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual({ code: 'not_found', message: 'Inbox test not found' });
    expect((await owner.client.get('/api/inbox-tests/999999')).statusCode).toBe(404);
    expect((await owner.client.get('/api/inbox-tests/abc')).statusCode).toBe(400);
    expect((await new TestClient(t.app).get(`/api/inbox-tests/${test.id}`)).statusCode).toBe(401);
  });

  it('shows a report only to the test’s owner, once stored', async () => {
    const owner = await sender();
    const stranger = await sender();
    const test = await createTest(owner.client);
    const waiting = await owner.client.get(`/api/inbox-tests/${test.id}/report`);
    expect(waiting.statusCode).toBe(404);
    expect(waiting.json().message).toBe('The test e-mail has not arrived yet');

    const simulated = await simulatedReport(owner.client);
    await t.database.db.insert(inboxTestReports).values({ testId: test.id, score: simulated.score, report: simulated });
    const shown = await owner.client.get(`/api/inbox-tests/${test.id}/report`);
    expect(shown.statusCode).toBe(200);
    expect(shown.json()).toEqual(simulated);

    const foreign = await stranger.client.get(`/api/inbox-tests/${test.id}/report`);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().message).toBe('Inbox test not found');
    expect((await stranger.client.get(`/api/inbox-tests/${test.id}/results`)).statusCode).toBe(404);
  });

  it('shows a report stored before reports named their engines with the engines that ran (migration 0011)', async () => {
    const owner = await sender();
    const test = await createTest(owner.client);
    const simulated = await simulatedReport(owner.client);
    const { engines: _dropped, ...legacy } = simulated;
    const withFailedSpamd = {
      ...legacy,
      spamAssassin: { score: null, threshold: null, isSpam: null, rules: [], error: 'spamd did not answer.' },
    };
    await t.database.db
      .insert(inboxTestReports)
      .values({ testId: test.id, score: legacy.score, report: withFailedSpamd });
    const migration = readFileSync(
      new URL('../platform/db/migrations/0011_report_engines.sql', import.meta.url),
      'utf8',
    );
    await t.database.db.execute(sql.raw(migration));
    const shown = await owner.client.get(`/api/inbox-tests/${test.id}/report`);
    expect(shown.statusCode).toBe(200);
    expect(shown.json().engines).toEqual([
      { id: 'inboxpulse', name: 'InboxPulse checks', status: 'ran' },
      { id: 'spamassassin', name: 'SpamAssassin', status: 'failed' },
    ]);
  });

  it('deletes the owner’s test with its placements and report, answering 204; another user’s id is 404 and stays', async () => {
    const owner = await sender();
    const stranger = await sender();
    const mine = await createTest(owner.client);
    const theirs = await createTest(stranger.client);
    const report = await simulatedReport(owner.client);
    await t.database.db.insert(inboxTestReports).values({ testId: mine.id, score: report.score, report });

    const foreign = await stranger.client.delete(`/api/inbox-tests/${mine.id}`);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual({ code: 'not_found', message: 'Inbox test not found' });
    expect(await idsOf(owner.client)).toEqual([mine.id]);

    const deleted = await owner.client.delete(`/api/inbox-tests/${mine.id}`);
    expect(deleted.statusCode).toBe(204);
    expect(deleted.body).toBe('');
    expect(await idsOf(owner.client)).toEqual([]);
    const db = t.database.db;
    expect(await db.select().from(inboxTestPlacements).where(eq(inboxTestPlacements.testId, mine.id))).toEqual([]);
    expect(await db.select().from(inboxTestReports).where(eq(inboxTestReports.testId, mine.id))).toEqual([]);
    expect((await owner.client.delete(`/api/inbox-tests/${mine.id}`)).statusCode).toBe(404);
    expect((await owner.client.delete(`/api/inbox-tests/${theirs.id}`)).statusCode).toBe(404);
    expect(await idsOf(stranger.client)).toEqual([theirs.id]);
  });

  it('refuses signed-out callers and bad ids', async () => {
    expect((await new TestClient(t.app).delete('/api/inbox-tests/1')).statusCode).toBe(401);
    const { client } = await signUp(t.app);
    expect((await client.delete('/api/inbox-tests/abc')).statusCode).toBe(400);
  });
});

describe('the one-click unsubscribe test', () => {
  it('is on for a new test unless the user turns it off; anything but true or false is refused and creates nothing', async () => {
    const owner = await sender();
    expect((await createTest(owner.client)).oneClickUnsubscribeTest).toBe(true);
    const off = await owner.client.post('/api/inbox-tests', { testType: 'automatic', oneClickUnsubscribeTest: false });
    expect(off.statusCode).toBe(200);
    expect(off.json().oneClickUnsubscribeTest).toBe(false);
    const [row] = await t.database.db.select().from(inboxTests).where(eq(inboxTests.id, off.json().id));
    expect(row!.oneClickUnsubscribeTest).toBe(false);

    const before = await idsOf(owner.client);
    const bad = await owner.client.post('/api/inbox-tests', { testType: 'automatic', oneClickUnsubscribeTest: 'no' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('oneClickUnsubscribeTest must be true or false');
    expect(await idsOf(owner.client)).toEqual(before);
  });

  it('gives another capability the latest result per user and From domain, subdomains included, passing over tests that turned it off', async () => {
    const owner = await sender();
    const stranger = await sender();
    const simulated = await simulatedReport(owner.client);
    const result = (
      outcome: OneClickUnsubscribeResult['outcome'],
      status: number | null,
    ): OneClickUnsubscribeResult => ({
      outcome,
      summary: outcome,
      rfcReason: null,
      url: 'https://unsubscribe.brand.test/u',
      status,
      durationMs: 12,
      redirects: [],
      hasListUnsubscribe: true,
      testedAt: '2026-11-20T10:00:00.000Z',
    });
    async function received(client: TestClient, from: string, day: string, oneClick: OneClickUnsubscribeResult) {
      const test = await createTest(client);
      const report = {
        ...simulated,
        authentication: { ...simulated.authentication!, headerFrom: [from] },
        oneClickUnsubscribe: oneClick,
      };
      await t.database.db
        .update(inboxTests)
        .set({ receivedAt: new Date(day) })
        .where(eq(inboxTests.id, test.id));
      await t.database.db.insert(inboxTestReports).values({ testId: test.id, score: report.score, report });
      return test.id;
    }
    await received(owner.client, 'news@brand.test', '2026-11-18T10:00:00Z', result('accepted', 200));
    const latest = await received(
      owner.client,
      'offers@mail.brand.test',
      '2026-11-19T10:00:00Z',
      result('refused', 500),
    );
    await received(owner.client, 'news@brand.test', '2026-11-20T10:00:00Z', result('turned_off', null));
    await received(owner.client, 'news@otherbrand.test', '2026-11-21T10:00:00Z', result('accepted', 200));
    await received(stranger.client, 'news@brand.test', '2026-11-22T10:00:00Z', result('accepted', 202));

    expect(await latestOneClickUnsubscribe(t.database.db, owner.userId, 'Brand.test')).toEqual({
      testId: latest,
      receivedAt: '2026-11-19T10:00:00.000Z',
      fromDomain: 'mail.brand.test',
      result: result('refused', 500),
    });
    expect(await latestOneClickUnsubscribe(t.database.db, owner.userId, 'nobrand.test')).toBeUndefined();
    expect((await latestOneClickUnsubscribe(t.database.db, stranger.userId, 'brand.test'))?.result.status).toBe(202);
  });
});
