import { daysAgo, utcDay } from '@contracts/utc-day';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { domains, emailMetrics, inboxTests, integrations } from '../platform/db/schema/index';
import { caughtUp } from '../test/caught-up';
import { createTestApp, signUp, TestClient, type TestApp } from '../test/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const day = (offset: number) => utcDay(daysAgo(offset));

// Rows go in directly: their creation APIs arrive with domains (issue 4), inbox tests (issue 5)
// and integrations. What is under test here is what the dashboard computes from them.
async function seed(userId: number) {
  await t.database.db.insert(domains).values([
    {
      userId,
      verificationToken: 'token-good.example',
      domain: 'good.example',
      status: 'healthy',
      spfStatus: 'valid',
      dkimStatus: 'valid',
      dmarcStatus: 'valid',
      lastCheckedAt: new Date(),
    },
    {
      userId,
      verificationToken: 'token-half.example',
      domain: 'half.example',
      status: 'warning',
      spfStatus: 'valid',
      dkimStatus: 'missing',
      dmarcStatus: 'invalid',
      lastCheckedAt: new Date(),
    },
    { userId, verificationToken: 'token-new.example', domain: 'new.example' },
  ]);
  await t.database.db.insert(inboxTests).values([
    {
      userId,
      testEmailAddress: `t1-${userId}@inbox.localhost`,
      status: 'completed',
      subject: 'Spring sale',
      totalSeeds: 10,
      inboxCount: 8,
      spamCount: 1,
      missingCount: 1,
      completedAt: sql`now() - interval '2 days'`,
    },
    {
      userId,
      testEmailAddress: `t2-${userId}@inbox.localhost`,
      status: 'completed',
      totalSeeds: 10,
      inboxCount: 10,
      completedAt: sql`now()`,
    },
    { userId, testEmailAddress: `t3-${userId}@inbox.localhost`, status: 'running' },
  ]);
  await t.database.db.insert(integrations).values([
    { userId, provider: 'sendgrid', type: 'esp', status: 'active', lastSyncAt: new Date() },
    { userId, provider: 'mailgun', type: 'esp', status: 'inactive' },
  ]);
  await t.database.db.insert(emailMetrics).values([
    { userId, provider: 'sendgrid', date: day(1), emailsSent: 1000, delivered: 980, bounced: 20, complaints: 1 },
    { userId, provider: 'sendgrid', date: day(2), emailsSent: 1000, delivered: 960, bounced: 40, complaints: 3 },
    { userId, provider: 'sendgrid', date: day(45), emailsSent: 5000, delivered: 1000, bounced: 4000, complaints: 500 },
  ]);
}

describe('dashboard API', () => {
  it('computes the overview from the user’s own rows', async () => {
    const { client, user } = await signUp(t.app);
    expect((await client.get('/api/dashboard/overview')).json()).toMatchObject({
      isEmpty: true,
      healthScore: null,
      inboxRate: null,
    });

    await seed(user.id);
    const other = await signUp(t.app);
    await seed(other.user.id);

    const o = (await client.get('/api/dashboard/overview')).json();
    expect(o).toEqual({
      healthScore: 78, // mean of authentication 66.7 and inbox 90 (no reputation source yet)
      domainReputation: null,
      ipReputation: null,
      authenticationScore: 66.7, // (3 + 1) valid of 6 checks on the two checked domains
      inboxRate: '90.00', // 18 of 20 seeds in completed tests; the running test does not count
      bounceRate: '3.00', // 60 of 2,000 sent in the last 30 days; the 45-day-old row is outside
      complaintRate: '0.21', // 4 of 1,940 delivered
      isEmpty: false,
      counts: { domains: 3, inboxTests: 3, activeIntegrations: 1 },
    });
  });

  it('lists domains, tests, integrations and metrics of the signed-in user only', async () => {
    const { client, user } = await signUp(t.app);
    await seed(user.id);
    const stranger = await signUp(t.app);
    expect((await stranger.client.get('/api/domains')).json()).toEqual([]);

    const list = (await client.get('/api/domains')).json();
    expect(list.map((d: { domain: string }) => d.domain).sort()).toEqual([
      'good.example',
      'half.example',
      'new.example',
    ]);
    expect(list.find((d: { domain: string }) => d.domain === 'new.example')).toMatchObject({
      status: 'pending',
      spfStatus: null,
      lastCheckedAt: null,
    });

    const tests = (await client.get('/api/inbox-tests')).json();
    expect(tests).toHaveLength(3);
    expect(tests.find((x: { subject: string | null }) => x.subject === 'Spring sale')).toMatchObject({
      status: 'completed',
      totalSeeds: 10,
      inboxCount: 8,
      spamCount: 1,
      missingCount: 1,
    });

    const found = (await client.get('/api/integrations')).json();
    expect(found).toEqual([
      expect.objectContaining({
        provider: 'mailgun',
        status: 'inactive',
        lastSync: null,
        emailsSent: 0,
        deliveryRate: null,
        dataPoints: 0,
      }),
      expect.objectContaining({
        provider: 'sendgrid',
        status: 'active',
        emailsSent: 2000,
        deliveryRate: 97,
        dataPoints: 3,
      }),
    ]);

    const metrics = (await client.get('/api/email-metrics')).json();
    expect(metrics.map((m: { date: string }) => m.date)).toEqual([day(1), day(2), day(45)]);
    expect(metrics[0]).toEqual({
      id: expect.any(Number),
      provider: 'sendgrid',
      date: day(1),
      emailsSent: 1000,
      delivered: 980,
      bounced: 20,
      complaints: 1,
    });
  });

  it('deletes an own inbox test and refuses someone else’s', async () => {
    const owner = await signUp(t.app);
    await seed(owner.user.id);
    const [test] = (await owner.client.get('/api/inbox-tests')).json();
    const intruder = await signUp(t.app);
    expect((await intruder.client.delete(`/api/inbox-tests/${test.id}`)).statusCode).toBe(404);
    expect((await owner.client.delete(`/api/inbox-tests/${test.id}`)).statusCode).toBe(204);
    expect((await owner.client.get('/api/inbox-tests')).json()).toHaveLength(2);
    expect((await owner.client.delete('/api/inbox-tests/zero')).statusCode).toBe(400);
  });

  it('serves trends only to plans with advanced analytics', async () => {
    const { client, user } = await signUp(t.app);
    await seed(user.id);
    const free = await client.get('/api/dashboard/trends?days=30');
    expect(free.statusCode).toBe(403);
    expect(free.json().message).toBe('Requires Professional plan');

    await t.database.db.execute(sql`UPDATE users SET subscription_plan = 'professional' WHERE id = ${user.id}`);
    // The session cache sees a change made behind the app's back once the database's notification arrives.
    await caughtUp(t);
    const trendsRes = await client.get('/api/dashboard/trends?days=7');
    expect(trendsRes.statusCode, trendsRes.body).toBe(200);
    const trends = trendsRes.json();
    expect(trends.days).toBe(7);
    expect(trends.inboxRate).toEqual([
      { date: day(2), value: 80 },
      { date: day(0), value: 100 },
    ]);
    expect(trends.deliveryRate).toEqual([
      { date: day(2), value: 96 },
      { date: day(1), value: 98 },
    ]);
    expect(trends.bounceRate.map((p: { value: number }) => p.value)).toEqual([4, 2]);
    expect(trends.complaintRate.map((p: { value: number }) => p.value)).toEqual([0.313, 0.102]);
    expect((await client.get('/api/dashboard/trends?days=90')).json().deliveryRate).toHaveLength(3);
    expect((await client.get('/api/dashboard/trends?days=12')).json().message).toBe('days must be 7, 30 or 90');
  });

  it('refuses signed-out callers', async () => {
    for (const url of [
      '/api/dashboard/overview',
      '/api/domains',
      '/api/inbox-tests',
      '/api/integrations',
      '/api/email-metrics',
    ]) {
      expect((await new TestClient(t.app).get(url)).statusCode, url).toBe(401);
    }
  });
});
