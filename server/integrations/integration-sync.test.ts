import { daysAgo, utcDay } from '@contracts/utc-day';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { emailMetrics, integrations } from '../platform/db/schema/index';
import { signUp, type TestClient } from '../test/test-app';
import { waitUntil } from '../test/wait-until';
import { backoffMs, FIRST_SYNC_DAYS, queueDueSyncs, syncIntegration } from './integration-sync';
import { listDueIntegrations } from './integrations.repo';
import { PROVIDERS } from './providers/index';
import { delivered, REFUSED_TEXT, type TruthDay } from './providers/test/fake-providers';
import { KEY, startIntegrationsHarness, type IntegrationsHarness } from './test/integrations-harness';

// Syncs against the providers' stand-ins: what lands in email_metrics, what a second sync does, a
// provider's 429, failures in a row and their alert. The sync is called directly (the worker is
// off) with a clock the test sets; the last test runs it through the job worker.

const day = (offset: number) => utcDay(daysAgo(offset));
const TRUTH: TruthDay[] = [
  { date: day(2), sent: 1000, hard: 12, soft: 8, complaints: 2, opens: 400, clicks: 50 },
  { date: day(1), sent: 2000, hard: 30, soft: 10, complaints: 5, opens: 900, clicks: 120 },
  { date: day(0), sent: 500, hard: 4, soft: 1, complaints: 0, opens: 100, clicks: 7 },
];

let h: IntegrationsHarness;
beforeAll(async () => {
  h = await startIntegrationsHarness(TRUTH);
});
afterAll(() => h?.close());
beforeEach(() => h.reset());

async function installed(
  pluginId: string,
  config: Record<string, string>,
): Promise<{ client: TestClient; userId: number; id: number }> {
  const { client, user } = await signUp(h.t.app);
  const res = await client.post('/api/integrations', { pluginId, config });
  expect(res.statusCode, res.body).toBe(201);
  return { client, userId: user.id, id: res.json().id };
}

const metricsOf = (userId: number) =>
  h.t.database.db
    .select({
      date: emailMetrics.date,
      provider: emailMetrics.provider,
      mailboxProvider: emailMetrics.mailboxProvider,
      sendingIp: emailMetrics.sendingIp,
      sent: emailMetrics.emailsSent,
      delivered: emailMetrics.delivered,
      bounced: emailMetrics.bounced,
      hard: emailMetrics.hardBounces,
      soft: emailMetrics.softBounces,
      complaints: emailMetrics.complaints,
      opens: emailMetrics.opens,
      clicks: emailMetrics.clicks,
    })
    .from(emailMetrics)
    .where(eq(emailMetrics.userId, userId))
    .orderBy(emailMetrics.date, emailMetrics.mailboxProvider);

const rowOf = async (id: number) =>
  (await h.t.database.db.select().from(integrations).where(eq(integrations.id, id)))[0];

const asRows = (days: TruthDay[]) =>
  days.map((d) => ({
    date: d.date,
    provider: 'sendgrid',
    mailboxProvider: '',
    sendingIp: '',
    sent: d.sent,
    delivered: delivered(d),
    bounced: d.hard + d.soft,
    hard: d.hard,
    soft: d.soft,
    complaints: d.complaints,
    opens: d.opens,
    clicks: d.clicks,
  }));

async function alertsOf(client: TestClient) {
  return (await client.get('/api/alerts')).json() as {
    title: string;
    severity: string;
    resolvedAt: string | null;
    metadata: Record<string, unknown>;
    history: { event: string; message: string }[];
  }[];
}

describe('syncing an integration', () => {
  it("writes one row per day under '' for mailbox provider and IP; a second sync writes over, never adds", async () => {
    const { userId, id, client } = await installed('sendgrid', { apiKey: KEY });
    // MTA events of the same provider (another capability's rows) are left alone.
    await h.t.database.db.insert(emailMetrics).values({
      userId,
      provider: 'sendgrid',
      date: day(1),
      mailboxProvider: 'gmail',
      sendingIp: '203.0.113.5',
      emailsSent: 7,
      delivered: 7,
    });
    const sendgrid = h.fakes.get('sendgrid')!;
    sendgrid.requests = [];

    // Noon today (UTC), so that the sync an hour later falls on the same day whenever the suite runs:
    // from 23:00 on, an hour later was tomorrow, and its window started a day later.
    const now = new Date(`${day(0)}T12:00:00Z`);
    expect(await syncIntegration(h.ctx, id, now)).toEqual({ status: 'synced', days: 3 });
    // The first sync reads a month.
    expect(sendgrid.requests.at(-1)!.query.get('start_date')).toBe(day(FIRST_SYNC_DAYS - 1));
    const gmail = {
      date: day(1),
      provider: 'sendgrid',
      mailboxProvider: 'gmail',
      sendingIp: '203.0.113.5',
      sent: 7,
      delivered: 7,
      bounced: 0,
      hard: 0,
      soft: 0,
      complaints: 0,
      opens: 0,
      clicks: 0,
    };
    expect(await metricsOf(userId)).toEqual([
      asRows([TRUTH[0]])[0],
      asRows([TRUTH[1]])[0],
      gmail,
      asRows([TRUTH[2]])[0],
    ]);
    expect(await rowOf(id)).toMatchObject({
      lastSyncAt: now,
      lastError: null,
      consecutiveFailures: 0,
      nextSyncAt: null,
      status: 'active',
    });

    // Later the same day the provider's figures have grown, and yesterday's was recounted: written over.
    const grown = TRUTH.map((d) =>
      d.date === day(0) ? { ...d, sent: 800, opens: 150 } : d.date === day(1) ? { ...d, clicks: 130 } : d,
    );
    sendgrid.days = grown;
    expect(await syncIntegration(h.ctx, id, new Date(now.getTime() + 3_600_000))).toEqual({
      status: 'synced',
      days: 3,
    });
    // Later syncs read the last 3 days only.
    expect(sendgrid.requests.at(-1)!.query.get('start_date')).toBe(day(2));
    expect(await metricsOf(userId)).toEqual([
      asRows([grown[0]])[0],
      asRows([grown[1]])[0],
      gmail,
      asRows([grown[2]])[0],
    ]);

    // The list reads the synced figures: one row a day, the ESP's own counted, not the events beside them.
    const [listed] = (await client.get('/api/integrations')).json();
    expect(listed).toMatchObject({ dataPoints: 3, emailsSent: 1000 + 2000 + 800 });

    // New figures: the user's alert conditions are evaluated again.
    const { rows } = await h.t.database.pool.query(
      `select count(*)::int as n from pgboss.job where name = 'evaluate-alerts' and (data->>'userId')::int = $1`,
      [userId],
    );
    expect(rows[0].n).toBeGreaterThan(0);
  });

  it('removes a day of the window the provider no longer lists, and leaves older days alone', async () => {
    const { userId, id } = await installed('brevo', { apiKey: KEY });
    await h.t.database.db.insert(emailMetrics).values([
      { userId, provider: 'brevo', date: day(20), emailsSent: 3, delivered: 3 },
      { userId, provider: 'brevo', date: day(1), emailsSent: 999, delivered: 999 },
    ]);
    await h.t.database.db.update(integrations).set({ lastSyncAt: new Date() }).where(eq(integrations.id, id));
    h.fakes.get('brevo')!.days = [TRUTH[0], TRUTH[2]];
    expect(await syncIntegration(h.ctx, id)).toEqual({ status: 'synced', days: 2 });
    expect((await metricsOf(userId)).map((m) => [m.date, m.sent])).toEqual([
      [day(20), 3],
      [day(2), 1000],
      [day(0), 500],
    ]);
  });

  it('only checks the connection of a provider without statistics, and records when it last worked', async () => {
    const { userId, id, client } = await installed('omnisend', { apiKey: KEY });
    expect(PROVIDERS.omnisend!.fetchDailyStats).toBeUndefined();
    const now = new Date();
    expect(await syncIntegration(h.ctx, id, now)).toEqual({ status: 'checked' });
    expect(await metricsOf(userId)).toEqual([]);
    expect((await client.get('/api/integrations')).json()).toEqual([
      expect.objectContaining({ lastSync: now.toISOString(), dailyStats: false, dataPoints: 0 }),
    ]);
  });

  it('waits as long as a 429 asks, without counting it as a failure; sync now is refused until then', async () => {
    const { id, client } = await installed('klaviyo', { privateKey: KEY });
    h.fakes.get('klaviyo')!.mode = 'rate_limited';
    const now = new Date();
    expect(await syncIntegration(h.ctx, id, now)).toMatchObject({ status: 'rate_limited', retryAfterSeconds: 7 });
    const row = await rowOf(id);
    expect(row).toMatchObject({ consecutiveFailures: 0, status: 'active', lastErrorAt: now });
    expect(row.lastError).toBe('Klaviyo is rate limiting requests (HTTP 429); it asked to wait 7 seconds');
    expect(row.nextSyncAt!.getTime()).toBe(now.getTime() + 7000);

    // Not due before then, due after.
    const due = (at: Date) =>
      listDueIntegrations(h.t.database.db, Object.keys(PROVIDERS), at, 10_000).then((rows) =>
        rows.some((r) => r.id === id),
      );
    expect(await due(new Date(now.getTime() + 6000))).toBe(false);
    expect(await due(new Date(now.getTime() + 7000))).toBe(true);

    const refused = await client.post(`/api/integrations/${id}/sync`);
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.json().message).toMatch(/^Klaviyo asked InboxPulse to wait before the next request/);
  });

  it('backs off after each failure, raises one alert at the third in a row, and a success resolves it', async () => {
    const { id, client } = await installed('sparkpost', { apiKey: KEY });
    const sparkpost = h.fakes.get('sparkpost')!;
    sparkpost.key = 'the-key-was-revoked';
    const start = Date.now();
    for (const [n, status] of [
      [1, 'active'],
      [2, 'active'],
      [3, 'error'],
      [4, 'error'],
    ] as const) {
      const now = new Date(start + n * 60_000);
      expect(await syncIntegration(h.ctx, id, now)).toEqual({
        status: 'failed',
        error: REFUSED_TEXT.sparkpost,
        failures: n,
      });
      const row = await rowOf(id);
      expect(row).toMatchObject({
        consecutiveFailures: n,
        status,
        lastError: REFUSED_TEXT.sparkpost,
        lastErrorAt: now,
      });
      expect(row.nextSyncAt!.getTime() - now.getTime()).toBe(backoffMs(n));
      const open = (await alertsOf(client)).filter((a) => !a.resolvedAt);
      expect(open.length, `after ${n} failures`).toBe(n >= 3 ? 1 : 0);
    }
    expect([1, 2, 3, 4, 10].map(backoffMs)).toEqual([3_600_000, 7_200_000, 14_400_000, 28_800_000, 86_400_000]);

    const [alert] = await alertsOf(client);
    expect(alert).toMatchObject({
      title: 'SparkPost sync keeps failing',
      severity: 'error',
      metadata: expect.objectContaining({ value: 4, provider: 'sparkpost', lastError: REFUSED_TEXT.sparkpost }),
    });
    expect(alert.history.map((e) => e.event)).toEqual(['raised', 'updated']);

    // The user fixes the key at SparkPost: the next sync works and the alert is resolved.
    sparkpost.key = KEY;
    expect(await syncIntegration(h.ctx, id, new Date(start + 10 * 60_000))).toEqual({ status: 'synced', days: 3 });
    expect(await rowOf(id)).toMatchObject({
      consecutiveFailures: 0,
      status: 'active',
      lastError: null,
      nextSyncAt: null,
    });
    const [resolved] = await alertsOf(client);
    expect(resolved.resolvedAt).not.toBeNull();
    expect(resolved.history.at(-1)!.message).toMatch(/^Recovered: SparkPost synced again on /);
  });

  it('a changed key that passes the test clears the failures and resolves the alert at once', async () => {
    const { id, client } = await installed('getresponse', { apiKey: KEY });
    const getresponse = h.fakes.get('getresponse')!;
    getresponse.key = 'rotated-key-0123456789';
    for (let n = 0; n < 3; n++) await syncIntegration(h.ctx, id);
    expect((await alertsOf(client)).filter((a) => !a.resolvedAt)).toHaveLength(1);
    const res = await client.patch(`/api/integrations/${id}`, { config: { apiKey: 'rotated-key-0123456789' } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      status: 'active',
      consecutiveFailures: 0,
      lastError: null,
      keyPreview: '…6789',
    });
    expect((await alertsOf(client)).filter((a) => !a.resolvedAt)).toHaveLength(0);
  });

  it('skips paused and uninstalled integrations', async () => {
    const { id, client } = await installed('hubspot', { apiKey: KEY });
    await client.patch(`/api/integrations/${id}`, { enabled: false });
    expect(await syncIntegration(h.ctx, id)).toEqual({ status: 'skipped', reason: 'paused' });
    await client.delete(`/api/integrations/${id}`);
    expect(await syncIntegration(h.ctx, id)).toEqual({ status: 'skipped', reason: 'not installed' });
  });

  it('the hourly round queues every integration that is due', async () => {
    const { id } = await installed('mailchimp', { apiKey: `${KEY}-us21` });
    await h.t.database.pool.query(`delete from pgboss.job where name = 'sync-integration'`);
    await queueDueSyncs(h.ctx, []);
    const { rows } = await h.t.database.pool.query(
      `select (data->>'integrationId')::int as id from pgboss.job where name = 'sync-integration'`,
    );
    expect(rows.map((r) => r.id)).toContain(id);
  });
});

describe('the sync job', () => {
  it('runs the first sync after an install', async () => {
    const worker = await startIntegrationsHarness(TRUTH, { app: { work: true } });
    try {
      const { client, user } = await signUp(worker.t.app);
      const res = await client.post('/api/integrations', {
        pluginId: 'mailgun',
        config: { apiKey: KEY, domain: 'mg.example.com' },
      });
      expect(res.statusCode, res.body).toBe(201);
      const synced = await waitUntil(async () => (await client.get('/api/integrations')).json()[0], 'the first sync', {
        until: (i: { lastSync: string | null }) => i.lastSync !== null,
        timeoutMs: 20_000,
      });
      expect(synced).toMatchObject({ dataPoints: 3, emailsSent: 3500, lastError: null });
      const rows = await worker.t.database.db
        .select()
        .from(emailMetrics)
        .where(and(eq(emailMetrics.userId, user.id), eq(emailMetrics.provider, 'mailgun')));
      expect(rows).toHaveLength(3);
    } finally {
      await worker.close();
    }
  });
});
