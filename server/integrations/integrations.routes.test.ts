import { daysAgo, utcDay } from '@contracts/utc-day';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PLUGIN_IDS } from '@content/integrations';
import { emailMetrics, integrations } from '../platform/db/schema/index';
import { signUp, TestClient } from '../test/test-app';
import {
  FAKE_HOSTS,
  FAKE_PROVIDER_IDS,
  fakeConfig,
  REFUSED_TEXT,
  type TruthDay,
} from './providers/test/fake-providers';
import { KEY, startIntegrationsHarness, type IntegrationsHarness } from './test/integrations-harness';

// The plugin routes against every ESP's stand-in on loopback (providers/test/fake-providers.ts).

const day = (offset: number) => utcDay(daysAgo(offset));
const TRUTH: TruthDay[] = [{ date: day(1), sent: 1000, hard: 10, soft: 5, complaints: 1, opens: 300, clicks: 40 }];

let h: IntegrationsHarness;
beforeAll(async () => {
  h = await startIntegrationsHarness(TRUTH, { extraZone: { 'internal-store.example': '10.0.0.5' } });
});
afterAll(() => h?.close());
beforeEach(() => h.reset());

const app = () => h.t.app;

/** Gmail's part of an SMTP2GO day from one sending IP, as a sync stores it beside the day's total. */
const gmailFigures = (userId: number, date: string, emailsSent: number, delivered: number) => ({
  userId,
  provider: 'smtp2go',
  date,
  mailboxProvider: 'gmail',
  sendingIp: '203.0.113.5',
  emailsSent,
  delivered,
});

async function install(client: TestClient, pluginId: string, config: Record<string, string>) {
  const res = await client.post('/api/integrations', { pluginId, config, provider: pluginId });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

describe('integrations and email metrics API', () => {
  it('shows each user only their own integrations, figured from their own metrics', async () => {
    const alice = await signUp(app());
    const bob = await signUp(app());
    for (const [userId, sent] of [
      [alice.user.id, 1000],
      [bob.user.id, 40],
    ]) {
      await h.t.database.db
        .insert(integrations)
        .values({ userId, provider: 'sendgrid', type: 'esp', status: 'active' });
      await h.t.database.db.insert(emailMetrics).values([
        { userId, provider: 'sendgrid', date: day(1), emailsSent: sent, delivered: sent / 2 },
        { userId, provider: 'sendgrid', date: day(40), emailsSent: 7, delivered: 7 },
      ]);
    }
    // Same provider for both: the figures join on the owner too, so nothing of Bob's counts for Alice.
    expect((await alice.client.get('/api/integrations')).json()).toEqual([
      expect.objectContaining({
        provider: 'sendgrid',
        name: 'SendGrid',
        status: 'active',
        emailsSent: 1000,
        deliveryRate: 50,
        dataPoints: 2,
        keyPreview: null,
      }),
    ]);
    expect((await bob.client.get('/api/integrations')).json()).toEqual([
      expect.objectContaining({ emailsSent: 40, dataPoints: 2 }),
    ]);
    const metrics = (await alice.client.get('/api/email-metrics')).json();
    expect(metrics.map((m: { date: string; emailsSent: number }) => [m.date, m.emailsSent])).toEqual([
      [day(1), 1000],
      [day(40), 7],
    ]);
    const { client: newcomer } = await signUp(app());
    expect((await newcomer.get('/api/integrations')).json()).toEqual([]);
    expect((await newcomer.get('/api/email-metrics')).json()).toEqual([]);
  });

  it('counts a day an ESP synced once, even when its webhooks sent events for the same messages', async () => {
    const { client, user } = await signUp(app());
    await h.t.database.db
      .insert(integrations)
      .values({ userId: user.id, provider: 'smtp2go', type: 'esp', status: 'active' });
    await h.t.database.db
      .insert(emailMetrics)
      .values([
        { userId: user.id, provider: 'smtp2go', date: day(1), emailsSent: 100, delivered: 90 },
        gmailFigures(user.id, day(1), 60, 55),
        gmailFigures(user.id, day(2), 10, 10),
      ]);
    expect((await client.get('/api/integrations')).json()).toEqual([
      expect.objectContaining({ emailsSent: 110, deliveryRate: 90.909, dataPoints: 2 }),
    ]);
  });

  it('refuses signed-out callers', async () => {
    const anonymous = new TestClient(app(), '10.1.1.1');
    for (const url of ['/api/integrations', '/api/email-metrics'])
      expect((await anonymous.get(url)).statusCode, url).toBe(401);
    for (const url of ['/api/integrations', '/api/integrations/test', '/api/integrations/1/sync'])
      expect((await anonymous.post(url, {})).statusCode, url).toBe(401);
  });
});

describe('POST /api/integrations/test', () => {
  it("answers success for a good key and the provider's own words for a wrong one, for every provider", async () => {
    const { client } = await signUp(app());
    for (const id of FAKE_PROVIDER_IDS) {
      const ok = await client.post('/api/integrations/test', { pluginId: id, config: fakeConfig(id, KEY) });
      expect(ok.statusCode, `${id}: ${ok.body}`).toBe(200);
      expect(ok.json(), id).toEqual({ success: true, error: null });
      h.fakes.get(id)!.key = 'a-key-the-provider-does-not-know';
      expect(
        (await client.post('/api/integrations/test', { pluginId: id, config: fakeConfig(id, KEY) })).json(),
        id,
      ).toEqual({
        success: false,
        error: REFUSED_TEXT[id],
      });
    }
    // Nothing is stored by a test.
    expect((await client.get('/api/integrations')).json()).toEqual([]);
  });

  it('checks the config against the plugin before calling anyone', async () => {
    const { client } = await signUp(app());
    const cases: [unknown, string][] = [
      [{ pluginId: 'sendgrid', config: {} }, 'API key is required'],
      [
        { pluginId: 'sendgrid', config: { apiKey: 'has spaces in it' } },
        'API key must be at least 8 characters, without spaces',
      ],
      [
        { pluginId: 'sendgrid', config: { apiKey: KEY, webhookUrl: 'http://example.com/hook' } },
        'Event Webhook URL (optional) must be an https:// URL',
      ],
      [
        { pluginId: 'sendgrid', config: { apiKey: KEY, serverPrefix: 'us1' } },
        'SendGrid has no config field "serverPrefix"',
      ],
      [{ pluginId: 'activecampaign', config: { apiKey: KEY } }, 'API URL is required'],
      [
        { pluginId: 'activecampaign', config: { apiKey: KEY, additionalConfig: 'http://acme.api-us1.com' } },
        'API URL must be a host name such as youraccount.api-us1.com, or its https:// URL',
      ],
      [
        { pluginId: 'mailchimp', config: { apiKey: KEY, serverPrefix: 'evil.example.com/' } },
        'Server prefix (optional) must be a server prefix such as us21',
      ],
      [{ pluginId: 'gmailpostmaster', config: {} }, `Plugin must be one of ${PLUGIN_IDS.join(', ')}`],
    ];
    for (const [body, message] of cases) {
      const res = await client.post('/api/integrations/test', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().message, JSON.stringify(body)).toBe(message);
    }
    const postmaster = await client.post('/api/integrations/test', {
      pluginId: 'google-postmaster',
      config: { credentials: '{"web":{}}', domain: 'example.com' },
    });
    expect(postmaster.statusCode).toBe(400);
    expect(postmaster.json().message).toBe(
      'Google Postmaster Tools is connected through its own sign-in, not with a key: use its Connect button',
    );
    for (const fake of h.fakes.values()) expect(fake.requests).toEqual([]);
  });

  it('refuses a user-given host on a private address, and loopback too when not in the test allowlist', async () => {
    const { client } = await signUp(app());
    const res = await client.post('/api/integrations/test', {
      pluginId: 'shopifyemail',
      config: { apiKey: KEY, additionalConfig: 'internal-store.example' },
    });
    expect(res.json()).toEqual({
      success: false,
      error: 'internal-store.example points to a private or local address, which InboxPulse does not connect to',
    });

    const production = await startIntegrationsHarness(TRUTH, { allowLoopback: false });
    try {
      const { client: user } = await signUp(production.t.app);
      const refused = await user.post('/api/integrations/test', {
        pluginId: 'shopifyemail',
        config: fakeConfig('shopifyemail', KEY),
      });
      expect(refused.json()).toEqual({
        success: false,
        error: `${FAKE_HOSTS.shopifyemail} points to a private or local address, which InboxPulse does not connect to`,
      });
      expect(production.fakes.get('shopifyemail')!.requests).toEqual([]);
    } finally {
      await production.close();
    }
  });

  it('limits how often one user may call providers', async () => {
    const { client } = await signUp(app());
    for (let i = 0; i < 30; i++)
      expect(
        (await client.post('/api/integrations/test', { pluginId: 'brevo', config: { apiKey: KEY } })).statusCode,
      ).toBe(200);
    const limited = await client.post('/api/integrations/test', { pluginId: 'brevo', config: { apiKey: KEY } });
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
    expect(h.fakes.get('brevo')!.requests).toHaveLength(30);
  });
});

describe('installing, listing, changing and uninstalling', () => {
  it('tests, then installs with the key sealed; the list shows its last characters only', async () => {
    const { client, user } = await signUp(app());
    const installed = await install(client, 'sendgrid', {
      apiKey: KEY,
      webhookUrl: 'https://example.com/sendgrid/events',
    });
    expect(installed).toMatchObject({
      provider: 'sendgrid',
      name: 'SendGrid',
      type: 'esp',
      status: 'active',
      lastSync: null,
      config: { webhookUrl: 'https://example.com/sendgrid/events' },
      keyPreview: '…WXYZ',
      dailyStats: true,
      lastError: null,
      consecutiveFailures: 0,
    });
    expect(h.fakes.get('sendgrid')!.requests.map((r) => r.path)).toEqual(['/v3/scopes']);

    // At rest: no trace of the key in the row, and the box opens to it only with APP_SECRET.
    const { rows } = await h.t.database.pool.query<{ row: string }>(
      `select i::text as row from integrations i where user_id = $1`,
      [user.id],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0].row).not.toContain(KEY);
    expect(rows[0].row).not.toContain(KEY.slice(0, 12));
    expect(rows[0].row).toMatch(/v1:[\w-]+:[\w-]+:[\w-]+/);

    const list = await client.get('/api/integrations');
    expect(list.body).not.toContain(KEY);
    expect(list.json()).toEqual([expect.objectContaining({ id: installed.id, keyPreview: '…WXYZ' })]);

    const again = await client.post('/api/integrations', { pluginId: 'sendgrid', config: { apiKey: KEY } });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('SendGrid is already installed: change its settings or uninstall it first');
  });

  it('installs nothing when the provider refuses the key, and says why in its words', async () => {
    const { client } = await signUp(app());
    h.fakes.get('klaviyo')!.key = 'the-real-one';
    const res = await client.post('/api/integrations', { pluginId: 'klaviyo', config: { privateKey: KEY } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      code: 'validation_error',
      message: `The connection test failed: ${REFUSED_TEXT.klaviyo}`,
    });
    expect((await client.get('/api/integrations')).json()).toEqual([]);
    h.fakes.get('klaviyo')!.mode = 'rate_limited';
    const limited = await client.post('/api/integrations', { pluginId: 'klaviyo', config: { privateKey: KEY } });
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBe('7');
  });

  it("answers 404 for another user's integration on every route", async () => {
    const owner = await signUp(app());
    const { id } = await install(owner.client, 'brevo', { apiKey: KEY });
    const intruder = await signUp(app());
    expect((await intruder.client.patch(`/api/integrations/${id}`, { enabled: false })).statusCode).toBe(404);
    expect((await intruder.client.post(`/api/integrations/${id}/sync`)).statusCode).toBe(404);
    expect((await intruder.client.delete(`/api/integrations/${id}`)).statusCode).toBe(404);
    expect((await owner.client.get('/api/integrations')).json()).toEqual([
      expect.objectContaining({ id, status: 'active' }),
    ]);
  });

  it('changes settings after a new connection test, keeps the stored key when none is sent, and pauses', async () => {
    const { client } = await signUp(app());
    const { id } = await install(client, 'mailgun', { apiKey: KEY });
    const mailgun = h.fakes.get('mailgun')!;
    mailgun.requests = [];

    const changed = await client.patch(`/api/integrations/${id}`, { config: { domain: 'MG.example.com' } });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({ config: { domain: 'mg.example.com' }, keyPreview: '…WXYZ' });
    expect(mailgun.requests.map((r) => r.path)).toEqual(['/v3/domains/mg.example.com']);

    // A domain the account does not have: refused in Mailgun's words, nothing changes.
    const refused = await client.patch(`/api/integrations/${id}`, { config: { domain: 'other.example.com' } });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe('The connection test failed: Domain not found (HTTP 404)');
    expect((await client.get('/api/integrations')).json()[0].config).toEqual({ domain: 'mg.example.com' });

    // Clearing the optional domain is a change too; the same values again are not (no provider call).
    mailgun.requests = [];
    expect((await client.patch(`/api/integrations/${id}`, { config: { domain: '' } })).json().config).toEqual({});
    expect((await client.patch(`/api/integrations/${id}`, { config: { apiKey: '' } })).statusCode).toBe(200);
    expect(mailgun.requests).toHaveLength(1);

    const paused = await client.patch(`/api/integrations/${id}`, { enabled: false });
    expect(paused.json().status).toBe('inactive');
    const sync = await client.post(`/api/integrations/${id}/sync`);
    expect(sync.statusCode).toBe(409);
    expect((await client.patch(`/api/integrations/${id}`, { enabled: true })).json().status).toBe('active');
  });

  it('queues a sync on request', async () => {
    const { client, user } = await signUp(app());
    const { id } = await install(client, 'hubspot', { apiKey: KEY });
    await h.t.database.pool.query(
      `delete from pgboss.job where name = 'sync-integration' and (data->>'integrationId')::int = $1`,
      [id],
    );
    const res = await client.post(`/api/integrations/${id}/sync`);
    expect(res.statusCode).toBe(202);
    expect(res.json()).toMatchObject({
      message: 'A HubSpot sync is queued; its figures appear here when it ends.',
      integration: { id },
    });
    const { rows } = await h.t.database.pool.query(
      `select count(*)::int as n from pgboss.job where name = 'sync-integration' and (data->>'integrationId')::int = $1`,
      [id],
    );
    expect(rows[0].n).toBe(1);
    expect(user.id).toBeGreaterThan(0);
  });

  it('uninstalls with the figures it synced, leaving MTA events of the same name; or keeps them when asked', async () => {
    const { client, user } = await signUp(app());
    const first = await install(client, 'smtp2go', { apiKey: KEY });
    await h.t.database.db
      .insert(emailMetrics)
      .values([
        { userId: user.id, provider: 'smtp2go', date: day(1), emailsSent: 100, delivered: 99 },
        gmailFigures(user.id, day(1), 60, 60),
      ]);
    expect((await client.delete(`/api/integrations/${first.id}`)).statusCode).toBe(204);
    const left = await h.t.database.db.select().from(emailMetrics).where(eq(emailMetrics.userId, user.id));
    expect(left.map((m) => m.mailboxProvider)).toEqual(['gmail']);
    expect((await client.get('/api/integrations')).json()).toEqual([]);

    const second = await install(client, 'smtp2go', { apiKey: KEY });
    await h.t.database.db
      .insert(emailMetrics)
      .values({ userId: user.id, provider: 'smtp2go', date: day(2), emailsSent: 5, delivered: 5 });
    expect((await client.delete(`/api/integrations/${second.id}?keepMetrics=true`)).statusCode).toBe(204);
    const kept = await h.t.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(emailMetrics)
      .where(eq(emailMetrics.userId, user.id));
    expect(kept[0].n).toBe(2);
    expect((await client.delete(`/api/integrations/${second.id}`)).statusCode).toBe(404);
  });
});
