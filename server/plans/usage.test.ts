import { utcDay } from '@contracts/utc-day';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UsageResponse } from '@contracts/plans';
import { newApiKey, setPlan, withKey } from '../api-keys/api-keys.test-support';
import { alerts, domains, emailMetrics } from '../platform/db/schema/index';
import { caughtUp } from '../test/caught-up';
import { createTestApp, signUp, TestClient, type TestApp } from '../test/test-app';

// GET /api/usage (ADR 032): the plan, its limits and what the user uses of them, counted from real rows.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

const today = () => utcDay();

async function usage(client: TestClient): Promise<UsageResponse> {
  const res = await client.get('/api/usage');
  expect(res.statusCode, res.body).toBe(200);
  return UsageResponse.parse(res.json());
}

describe('GET /api/usage', () => {
  it('shows a new Free user the Free limits, no features and nothing used', async () => {
    const { client } = await signUp(t.app);
    expect(await usage(client)).toEqual({
      plan: 'free',
      limits: { domains: 5, inboxTestsPerMonth: 10, emailsPerMonth: 10_000, retentionDays: 30, apiRequestsPerHour: 0 },
      usage: { domains: 0, inboxTestsThisMonth: 0, emailsThisMonth: 0, alerts: 0 },
      features: [],
      refusedThisMonth: [],
    });
  });

  it('counts the user’s own domains, inbox tests started this month, e-mails sent this month and alerts, and nobody else’s', async () => {
    const { client, user } = await signUp(t.app);
    const other = await signUp(t.app);
    for (const domain of ['one.example.com', 'two.example.com'])
      expect((await client.post('/api/domains', { domain })).statusCode).toBe(200);
    await t.database.db.update(domains).set({ status: 'healthy' }).where(eq(domains.userId, user.id));
    for (let i = 0; i < 3; i++)
      expect((await client.post('/api/inbox-tests', { testType: 'automatic' })).statusCode).toBe(200);
    const now = new Date();
    const lastMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 0)).toISOString().slice(0, 10);
    await t.database.db.insert(emailMetrics).values([
      { userId: user.id, provider: 'sendgrid', date: today(), emailsSent: 1200, delivered: 1190 },
      { userId: user.id, provider: 'postfix', date: today(), mailboxProvider: 'gmail', emailsSent: 34, delivered: 34 },
      { userId: user.id, provider: 'sendgrid', date: lastMonth, emailsSent: 99_999, delivered: 99_999 },
      { userId: other.user.id, provider: 'sendgrid', date: today(), emailsSent: 5, delivered: 5 },
    ]);
    await t.database.db.insert(alerts).values([
      { userId: user.id, type: 'dns_changes', severity: 'warning', title: 'SPF changed', message: 'SPF changed' },
      { userId: user.id, type: 'dns_changes', severity: 'info', title: 'Read one', message: 'Read one', isRead: true },
      { userId: other.user.id, type: 'dns_changes', severity: 'info', title: 'Theirs', message: 'Theirs' },
    ]);
    expect((await usage(client)).usage).toEqual({
      domains: 2,
      inboxTestsThisMonth: 3,
      emailsThisMonth: 1234,
      alerts: 2,
    });
    expect((await usage(other.client)).usage).toEqual({
      domains: 0,
      inboxTestsThisMonth: 0,
      emailsThisMonth: 5,
      alerts: 1,
    });
  });

  it('follows a plan change: Professional’s unlimited figures (null) and its features, to a script’s API key as well', async () => {
    const { client, user } = await signUp(t.app);
    await setPlan(t, user.id, 'professional');
    await caughtUp(t);
    const shown = await usage(client);
    expect(shown.plan).toBe('professional');
    expect(shown.limits).toEqual({
      domains: null,
      inboxTestsPerMonth: 1_000,
      emailsPerMonth: null,
      retentionDays: 365,
      apiRequestsPerHour: 10_000,
    });
    expect(shown.features).toEqual(
      expect.arrayContaining(['api_access', 'bulk_ip_import', 'advanced_analytics', 'advanced_alerting']),
    );
    expect(shown.features).not.toContain('white_label');

    const key = await newApiKey(client);
    const byKey = await withKey(t.app, key, 'GET', '/api/usage');
    expect(byKey.statusCode).toBe(200);
    expect(byKey.json()).toEqual(shown);
  });

  it('answers 401 to a signed-out caller', async () => {
    const res = await new TestClient(t.app).get('/api/usage');
    expect(res.statusCode).toBe(401);
  });
});
