import { nextMonthStart, utcDay } from '@contracts/utc-day';
import { count, eq } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlanId } from '@contracts/plans';
import { newApiKey, setPlan, withKey } from '../api-keys/api-keys.test-support';
import { domains, emailMetrics } from '../platform/db/schema/index';
import { caughtUp } from '../test/caught-up';
import { startDnsServer, type TestDnsServer } from '../test/dns-server';
import { createTestApp, signUp, type TestApp, type TestClient } from '../test/test-app';
import { waitUntil } from '../test/wait-until';

// Every plan gate and limit the server enforces (ADR 032), through the API, with the plan changed in
// the database as billing changes it.

let dns: TestDnsServer;
let t: TestApp;
beforeAll(async () => {
  // Event ingestion looks up each recipient domain's MX: an empty zone answers at once.
  dns = await startDnsServer({});
  t = await createTestApp({ env: { DNS_SERVERS: dns.address } });
});
afterAll(async () => {
  await t?.close();
  await dns?.close();
});

/** The plan as billing sets it, seen by the app once the database's notification arrived. */
async function onPlan(userId: number, plan: PlanId): Promise<void> {
  await setPlan(t, userId, plan);
  await caughtUp(t);
}

const domainCount = async (userId: number) =>
  (await t.database.db.select({ n: count() }).from(domains).where(eq(domains.userId, userId)))[0]!.n;

async function addDomains(client: TestClient, names: string[]): Promise<number[]> {
  const codes: number[] = [];
  for (const domain of names) codes.push((await client.post('/api/domains', { domain })).statusCode);
  return codes;
}

const UPGRADE = { code: 'forbidden', message: 'Requires Professional plan' };

describe('feature gates', () => {
  const bounceRule = {
    name: 'Bounces',
    type: 'bounceRate',
    threshold: { warning: 3, critical: 5 },
    notifications: { email: true, slack: true },
  };

  let block = 0;
  /** Each gated capability, called as the plan's user: its status code. */
  async function gated(client: TestClient, key: string) {
    // A block not imported before, so an open gate answers 200, not "already monitored".
    block += 4;
    return {
      bulk_ip_import: (
        await client.post('/api/ip-addresses/bulk-import', { cidrBlock: `8.8.4.${block}/30`, label: 'Pool' })
      ).statusCode,
      advanced_analytics: (await client.get('/api/dashboard/trends?days=7')).statusCode,
      advanced_alerting: (await client.post('/api/alerts/rules', bounceRule)).statusCode,
      api_access: (await withKey(t.app, key, 'GET', '/api/domains')).statusCode,
    };
  }

  it('answer 403 "Requires Professional plan" on Free, open on Professional and Enterprise, and close again on a downgrade', async () => {
    const { client, user } = await signUp(t.app);
    const key = await newApiKey(client);
    expect(await gated(client, key)).toEqual({
      bulk_ip_import: 403,
      advanced_analytics: 403,
      advanced_alerting: 403,
      api_access: 403,
    });
    for (const res of [
      await client.get('/api/dashboard/trends?days=7'),
      await client.post('/api/alerts/rules', bounceRule),
    ])
      expect(res.json()).toEqual(UPGRADE);
    expect((await withKey(t.app, key, 'GET', '/api/domains')).json()).toEqual(UPGRADE);

    await onPlan(user.id, 'professional');
    expect(await gated(client, key)).toEqual({
      bulk_ip_import: 200,
      advanced_analytics: 200,
      advanced_alerting: 200,
      api_access: 200,
    });

    await onPlan(user.id, 'free');
    expect(await gated(client, key)).toEqual({
      bulk_ip_import: 403,
      advanced_analytics: 403,
      advanced_alerting: 403,
      api_access: 403,
    });

    await onPlan(user.id, 'enterprise');
    expect(await gated(client, key)).toEqual({
      bulk_ip_import: 200,
      advanced_analytics: 200,
      advanced_alerting: 200,
      api_access: 200,
    });
  });

  it('give Starter the API and nothing else: its key works, the Professional features still say Requires Professional plan', async () => {
    const { client, user } = await signUp(t.app);
    const key = await newApiKey(client);
    await onPlan(user.id, 'starter');
    expect(await gated(client, key)).toEqual({
      bulk_ip_import: 403,
      advanced_analytics: 403,
      advanced_alerting: 403,
      api_access: 200,
    });
    expect((await client.get('/api/dashboard/trends?days=7')).json()).toEqual(UPGRADE);
  });

  it('hold each plan to its documented API requests an hour', async () => {
    const { client, user } = await signUp(t.app);
    const key = await newApiKey(client);
    for (const [plan, limit] of [
      ['starter', 1_000],
      ['professional', 10_000],
      ['enterprise', 100_000],
    ] as const) {
      await onPlan(user.id, plan);
      const res = await withKey(t.app, key, 'GET', '/api/usage');
      expect(res.statusCode, plan).toBe(200);
      expect(res.headers['x-ratelimit-limit'], plan).toBe(String(limit));
      expect(res.json().limits.apiRequestsPerHour).toBe(limit);
    }
  });
});

describe('domain limit', () => {
  const names = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}-${i + 1}.example.com`);

  it('refuses the 6th domain on Free with the limit and the plan that lifts it, and takes it after an upgrade', async () => {
    const { client, user } = await signUp(t.app);
    expect(await addDomains(client, names('free', 5))).toEqual([200, 200, 200, 200, 200]);
    const sixth = await client.post('/api/domains', { domain: 'free-6.example.com' });
    expect(sixth.statusCode).toBe(403);
    expect(sixth.json()).toEqual({
      code: 'forbidden',
      message: 'Your Free plan allows 5 domains. Requires Professional plan',
    });
    // Adding one already there is still "already added", and nothing was stored by the refusal.
    expect((await client.post('/api/domains', { domain: 'free-1.example.com' })).statusCode).toBe(409);
    expect(await domainCount(user.id)).toBe(5);

    // A deleted domain frees its slot.
    const [first] = (await client.get('/api/domains')).json() as { id: number }[];
    expect((await client.delete(`/api/domains/${first!.id}`)).statusCode).toBe(204);
    expect((await client.post('/api/domains', { domain: 'free-6.example.com' })).statusCode).toBe(200);
    expect((await client.post('/api/domains', { domain: 'free-7.example.com' })).statusCode).toBe(403);

    await onPlan(user.id, 'professional');
    expect(await addDomains(client, ['free-7.example.com', 'free-8.example.com'])).toEqual([200, 200]);
    expect(await domainCount(user.id)).toBe(7);
  });

  it('lets an Enterprise user add far more than any limited plan', async () => {
    const { client, user } = await signUp(t.app);
    await onPlan(user.id, 'enterprise');
    expect(new Set(await addDomains(client, names('big', 27)))).toEqual(new Set([200]));
    expect(await domainCount(user.id)).toBe(27);
  });

  it('holds Starter to 25 domains', async () => {
    const { client, user } = await signUp(t.app);
    await onPlan(user.id, 'starter');
    expect(new Set(await addDomains(client, names('starter', 25)))).toEqual(new Set([200]));
    const refused = await client.post('/api/domains', { domain: 'starter-26.example.com' });
    expect(refused.json()).toEqual({
      code: 'forbidden',
      message: 'Your Starter plan allows 25 domains. Requires Professional plan',
    });
  });

  /**
   * Five adds for a user with 2 of 5 domains, held back by another session's lock on the domains table
   * until every one of them waits, then let go at once: the status codes.
   */
  async function raceForLastSlots(): Promise<{ userId: number; codes: number[] }> {
    const { client, user } = await signUp(t.app);
    expect(await addDomains(client, names(`race${user.id}`, 2))).toEqual([200, 200]);
    const holder = new pg.Client(t.database.connection);
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('LOCK TABLE domains IN SHARE MODE');
      // Five: the test pool's size, so every add holds a connection while it waits.
      const racing = Promise.all(names(`racing${user.id}`, 5).map((domain) => client.post('/api/domains', { domain })));
      const waiting = async () => {
        // Statistics are a snapshot per transaction: take a fresh one each time.
        await holder.query('SELECT pg_stat_clear_snapshot()');
        const { rows } = await holder.query(
          `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
        );
        return rows[0].n as number;
      };
      await waitUntil(waiting, 'every add to wait on a lock', { until: (n) => n >= 5 });
      await holder.query('COMMIT');
      return { userId: user.id, codes: (await racing).map((r) => r.statusCode) };
    } finally {
      await holder.end();
    }
  }

  it('gives the last free slots to exactly as many of several adds as fit, even when they all start together', async () => {
    // Without the user row lock, adds let go together each count their own row only and several pass
    // the limit; a few rounds make that show.
    for (let round = 0; round < 3; round++) {
      const { userId, codes } = await raceForLastSlots();
      expect(codes.filter((c) => c === 200)).toHaveLength(3);
      expect(codes.filter((c) => c === 403)).toHaveLength(2);
      expect(await domainCount(userId)).toBe(5);
    }
  });
});

describe('inbox tests per month', () => {
  async function sender() {
    const { client, user } = await signUp(t.app);
    await t.database.db
      .insert(domains)
      .values({ userId: user.id, domain: `brand-${user.id}.test`, verificationToken: 'token', status: 'healthy' });
    return { client, userId: user.id };
  }
  const startTest = (client: TestClient) => client.post('/api/inbox-tests', { testType: 'automatic' });

  it('allows 10 on Free, refuses the 11th even after tests were deleted, and allows more after an upgrade', async () => {
    const { client, userId } = await sender();
    for (let i = 0; i < 10; i++) expect((await startTest(client)).statusCode, `test ${i + 1}`).toBe(200);
    const eleventh = await startTest(client);
    expect(eleventh.statusCode).toBe(403);
    expect(eleventh.json()).toEqual({
      code: 'forbidden',
      message: 'Your Free plan allows 10 inbox tests per month. Requires Professional plan',
    });

    // A started test used the seeds: deleting it does not give the month's allowance back.
    const [test] = (await client.get('/api/inbox-tests')).json() as { id: number }[];
    expect((await client.delete(`/api/inbox-tests/${test!.id}`)).statusCode).toBe(204);
    expect((await startTest(client)).statusCode).toBe(403);
    expect((await client.get('/api/inbox-tests')).json()).toHaveLength(9);

    await onPlan(userId, 'professional');
    expect((await startTest(client)).statusCode).toBe(200);
    expect((await client.get('/api/usage')).json().usage.inboxTestsThisMonth).toBe(11);
  });

  it('gives the month’s last test to exactly one of several requests sent at once', async () => {
    const { client } = await sender();
    for (let i = 0; i < 8; i++) expect((await startTest(client)).statusCode).toBe(200);
    const racing = await Promise.all([1, 2, 3, 4].map(() => startTest(client)));
    expect(racing.map((r) => r.statusCode).sort()).toEqual([200, 200, 403, 403]);
    expect((await client.get('/api/inbox-tests')).json()).toHaveLength(10);
  });
});

describe('e-mails per month', () => {
  const event = (n: number) => ({
    type: 'delivered',
    message_id: `<m${n}@brand.example>`,
    recipient: `r${n}@example.org`,
    status: '250 OK',
  });

  it('refuses pushed events and day totals (429) once a Free month reached 10,000 e-mails, from the web app and from MTAs, until an upgrade', async () => {
    const { client, user } = await signUp(t.app);
    const token = (await client.post('/api/webhook-tokens/generate')).json().token as string;
    // 9,999 already counted this month (a synced ESP's day).
    await t.database.db
      .insert(emailMetrics)
      .values({ userId: user.id, provider: 'sendgrid', date: utcDay(), emailsSent: 9_999, delivered: 9_999 });

    const last = await client.post('/api/events', event(1));
    expect(last.statusCode, last.body).toBe(200);
    expect(last.json().accepted).toBe(1);
    expect((await client.get('/api/usage')).json().usage.emailsThisMonth).toBe(10_000);

    // ADR 043: a 429 naming the limit, the count and the upgrade page; each route says what it did not store.
    const events = 'the delivery event of this request was not stored';
    const figures = 'the day’s figures of this request were not stored';
    const restart = utcDay(nextMonthStart());
    const over = (what: string) => ({
      code: 'rate_limited',
      message:
        `Your Free plan allows 10,000 emails per month and 10,000 were counted this month, so ${what}. ` +
        `Upgrade to the Professional plan at ${t.env.APP_URL}/pricing to store them; the count starts again on ${restart} (UTC).`,
    });
    const refused = [
      await client.post('/api/events', event(2)),
      await client.post('/api/v1/events', { events: [event(3)] }),
      await client.post('/api/email-metrics', {
        eventType: 'delivered',
        messageId: '<m4@brand.example>',
        recipient: 'r4@example.org',
      }),
      await client.post('/api/v1/metrics', { provider: 'custom', date: utcDay(), emailsSent: 5, delivered: 5 }),
      await client.post('/api/smtp2go/sync', {
        provider: 'smtp2go',
        timestamp: new Date().toISOString(),
        data: { total_sent: 5 },
      }),
      await t.app.inject({
        method: 'POST',
        url: '/api/webhooks/postal',
        headers: { authorization: `Bearer ${token}` },
        payload: {
          event: 'MessageSent',
          payload: {
            message: { id: 9, token: 'x', to: 'a@example.org' },
            status: 'Sent',
            details: 'ok',
            timestamp: Date.now() / 1000,
          },
        },
      }),
    ];
    const said = [events, events, events, figures, figures, events];
    refused.forEach((res, i) => {
      expect(res.statusCode, res.body).toBe(429);
      expect(res.json()).toEqual(over(said[i]!));
    });
    expect((await client.get('/api/usage')).json().usage.emailsThisMonth).toBe(10_000);

    await onPlan(user.id, 'professional');
    const after = await client.post('/api/events', event(2));
    expect(after.statusCode, after.body).toBe(200);
    expect(after.json().accepted).toBe(1);
  });

  it('counts only this month: last month’s volume leaves a Free user free to send', async () => {
    const { client, user } = await signUp(t.app);
    const now = new Date();
    const lastMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 0)).toISOString().slice(0, 10);
    await t.database.db
      .insert(emailMetrics)
      .values({ userId: user.id, provider: 'sendgrid', date: lastMonth, emailsSent: 50_000, delivered: 50_000 });
    expect((await client.post('/api/events', event(1))).statusCode).toBe(200);
    expect((await client.get('/api/usage')).json().usage.emailsThisMonth).toBe(1);
  });
});
