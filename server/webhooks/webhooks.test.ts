import { eq, sql } from 'drizzle-orm';
import { readFileSync, rmSync } from 'node:fs';
import { createServer as createHttpsServer, type Server } from 'node:https';
import type { IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { WebhookDelivery } from '@contracts/webhooks';
import { webhooks } from '../platform/db/schema/webhooks';
import { createMailer } from '../platform/mail/mailer';
import { decryptSecret, encryptSecret } from '../platform/security/secret-box';
import { startDnsServer, type TestDnsServer } from '../test/dns-server';
import { hasOpenssl, makeSelfSignedCert } from '../test/self-signed-cert';
import { createTestApp, signUp, TestClient, type TestApp } from '../test/test-app';
import { waitUntil } from '../test/wait-until';
import { settledDelivery } from './webhook-deliveries.test-support';
import pino from 'pino';
import { attemptDelivery, enqueueWebhookEvent, refusedHostMessage, sweepStrandedDeliveries } from './webhooks.service';
import { insertDeliveries } from './webhooks.repo';
import { verifyWebhookSignature } from './webhook-signature';

const HOST = 'hooks.receiver.test';
/** The receivers listen here; the app's guard lets only this non-public address through (OUTBOUND_ALLOW_ADDRESSES). */
const RECEIVER_ADDRESS = '127.0.0.2';

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  signatureValid: boolean;
}

describe.skipIf(!hasOpenssl)('outgoing webhooks (needs openssl to make a test certificate)', () => {
  let t: TestApp;
  let dns: TestDnsServer;
  let receiver: Server;
  /** A server on 127.0.0.1, where the redirect points: it must never be reached. */
  let privateTarget: Server;
  let privateHits = 0;
  let port = 0;
  let made: ReturnType<typeof makeSelfSignedCert>;
  /** Signing secrets by path, as each receiver would keep the one it was shown. */
  const secrets = new Map<string, string>();
  /** What each path answers, by the number of requests it has had (1-based). */
  const answers = new Map<string, (n: number) => number | 'silent' | 'redirect'>();
  let received: Received[] = [];

  beforeAll(async () => {
    made = makeSelfSignedCert(HOST);
    const tls = { key: readFileSync(made.key), cert: readFileSync(made.cert) };
    privateTarget = createHttpsServer(tls, (_req, res) => {
      privateHits++;
      res.end('ok');
    });
    await new Promise<void>((resolve) => privateTarget.listen(0, '127.0.0.1', resolve));
    receiver = createHttpsServer(tls, (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const path = req.url ?? '/';
        const body = Buffer.concat(chunks).toString('utf8');
        const signature = req.headers['inboxpulse-signature'] as string | undefined;
        const signatureValid = verifyWebhookSignature(secrets.get(path) ?? '', body, signature, 300).valid;
        received.push({ path, headers: req.headers, body, signatureValid });
        const n = received.filter((r) => r.path === path).length;
        const answer = signatureValid ? (answers.get(path)?.(n) ?? 200) : 401;
        if (answer === 'silent') return; // never answers: the sender's timeout ends it
        if (answer === 'redirect')
          return res
            .writeHead(302, { location: `https://127.0.0.1:${(privateTarget.address() as AddressInfo).port}/` })
            .end();
        res.writeHead(answer, { 'content-type': 'text/plain' }).end(answer < 300 ? 'ok' : 'nope');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, RECEIVER_ADDRESS, resolve));
    port = (receiver.address() as AddressInfo).port;
    dns = await startDnsServer({ [HOST]: { A: [RECEIVER_ADDRESS] }, 'private.receiver.test': { A: ['10.0.0.5'] } });
    t = await createTestApp({
      work: true,
      env: {
        DNS_SERVERS: dns.address,
        OUTBOUND_ALLOW_ADDRESSES: RECEIVER_ADDRESS,
        OUTBOUND_CA_FILE: made.cert,
        WEBHOOK_RETRY_SECONDS: '0',
        WEBHOOK_TIMEOUT_MS: '1000',
      },
    });
  });
  afterAll(async () => {
    await t?.close();
    await dns?.close();
    receiver?.closeAllConnections();
    receiver?.close();
    privateTarget?.close();
    if (made) rmSync(made.dir, { recursive: true, force: true });
  });
  beforeEach(() => {
    received = [];
    dns.zone[HOST] = { A: [RECEIVER_ADDRESS] };
  });

  const url = (path: string) => `https://${HOST}:${port}${path}`;

  async function register(client: TestClient, path: string, events: string[] = ['webhook.test']) {
    const res = await client.post('/api/webhooks', { url: url(path), events, description: `receiver ${path}` });
    expect(res.statusCode, res.body).toBe(200);
    secrets.set(path, res.json().secret);
    return res.json() as { id: number; secret: string; secretPreview: string };
  }

  it('registers a webhook, shows its secret once and keeps it encrypted', async () => {
    const { client, user } = await signUp(t.app);
    const created = await register(client, '/once', ['email.bounced', 'alert.created', 'email.bounced']);
    expect(created).toMatchObject({
      url: url('/once'),
      events: ['email.bounced', 'alert.created'],
      description: 'receiver /once',
    });
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(created.secretPreview).toBe(`${created.secret.slice(0, 10)}…`);

    const list = (await client.get('/api/webhooks')).json();
    expect(list).toEqual([
      {
        id: created.id,
        url: url('/once'),
        events: ['email.bounced', 'alert.created'],
        description: 'receiver /once',
        secretPreview: created.secretPreview,
        createdAt: expect.any(String),
      },
    ]);
    expect(JSON.stringify(list)).not.toContain(created.secret);

    const [row] = await t.database.db.select().from(webhooks).where(eq(webhooks.userId, user.id));
    expect(row!.secretEncrypted).not.toContain(created.secret.slice(6));
    expect(decryptSecret(row!.secretEncrypted, t.env.APP_SECRET)).toBe(created.secret);
  });

  it('delivers a signed test event to a receiver that verifies it, in one attempt', async () => {
    const { client } = await signUp(t.app);
    const hook = await register(client, '/ok');
    const queued = await client.post(`/api/webhooks/${hook.id}/test`);
    expect(queued.statusCode).toBe(200);
    expect(queued.json()).toMatchObject({
      webhookId: hook.id,
      eventType: 'webhook.test',
      status: 'pending',
      attempts: [],
      maxAttempts: 5,
    });

    const delivery = await settledDelivery(client, hook.id, queued.json().id);
    expect(delivery).toMatchObject({
      status: 'delivered',
      attempts: [{ statusCode: 200, error: null }],
      deliveredAt: expect.any(String),
    });
    const [request] = received;
    expect(request!.signatureValid).toBe(true);
    expect(request!.headers).toMatchObject({
      'content-type': 'application/json',
      'user-agent': 'InboxPulse-Webhooks/1.0',
      'inboxpulse-event': 'webhook.test',
      'inboxpulse-delivery': String(delivery.id),
    });
    const envelope = JSON.parse(request!.body);
    expect(envelope).toEqual({
      id: delivery.eventId,
      type: 'webhook.test',
      created: expect.any(Number),
      data: expect.objectContaining({ webhook_id: hook.id }),
    });
    expect(envelope.id).toMatch(/^evt_/);
    expect(Math.abs(envelope.created - Date.now() / 1000)).toBeLessThan(60);
    // A receiver holding another secret, or a body changed on the way, fails the check.
    expect(
      verifyWebhookSignature('whsec_other', request!.body, request!.headers['inboxpulse-signature'] as string).valid,
    ).toBe(false);
    expect(
      verifyWebhookSignature(
        secrets.get('/ok')!,
        request!.body + ' ',
        request!.headers['inboxpulse-signature'] as string,
      ).valid,
    ).toBe(false);
  });

  it('retries after 500s and delivers on the third attempt, logging each', async () => {
    answers.set('/flaky', (n) => (n <= 2 ? 500 : 200));
    const { client } = await signUp(t.app);
    const hook = await register(client, '/flaky');
    const delivery = await settledDelivery(
      client,
      hook.id,
      (await client.post(`/api/webhooks/${hook.id}/test`)).json().id,
    );
    expect(delivery.status).toBe('delivered');
    expect(delivery.attempts.map((a) => [a.statusCode, a.error])).toEqual([
      [500, 'HTTP 500'],
      [500, 'HTTP 500'],
      [200, null],
    ]);
    // Every attempt sends the same event, freshly signed.
    expect(new Set(received.map((r) => JSON.parse(r.body).id)).size).toBe(1);
    expect(received.every((r) => r.signatureValid)).toBe(true);
  });

  it('fails after exactly 5 attempts when the receiver always answers 500, and a redelivery sends the same event again', async () => {
    answers.set('/down', () => 500);
    const { client } = await signUp(t.app);
    const hook = await register(client, '/down');
    const first = await settledDelivery(
      client,
      hook.id,
      (await client.post(`/api/webhooks/${hook.id}/test`)).json().id,
    );
    expect(first.status).toBe('failed');
    expect(first.attempts).toHaveLength(5);
    expect(first.attempts.every((a) => a.statusCode === 500 && a.durationMs >= 0)).toBe(true);
    expect(received).toHaveLength(5);

    answers.set('/down', () => 200);
    const again = await client.post(`/api/webhooks/deliveries/${first.id}/redeliver`);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ eventId: first.eventId, status: 'pending', attempts: [] });
    expect(again.json().id).not.toBe(first.id);
    const redelivered = await settledDelivery(client, hook.id, again.json().id);
    expect(redelivered).toMatchObject({ status: 'delivered', eventId: first.eventId });
    expect(received[5]!.body).toBe(received[0]!.body);
    // The failed one stays as it was.
    expect(
      (await client.get(`/api/webhooks/${hook.id}/deliveries`)).json().find((d: WebhookDelivery) => d.id === first.id),
    ).toMatchObject({
      status: 'failed',
    });
  });

  it('waits 30 s, then 4 times longer, before each retry (WEBHOOK_RETRY_SECONDS)', async () => {
    answers.set('/backoff', () => 500);
    const { client, user } = await signUp(t.app);
    const hook = await register(client, '/backoff');
    // A delivery not queued yet: each attempt below is run here, as the job would run it.
    const [row] = await insertDeliveries(t.database.db, [
      { webhookId: hook.id, userId: user.id, eventId: 'evt_backoff', eventType: 'webhook.test', body: '{}' },
    ]);
    const ctx = {
      db: t.database.db,
      dns: t.dns,
      jobs: t.jobs,
      log: pino({ level: 'silent' }),
      mailer: createMailer(undefined, 'InboxPulse <noreply@example.com>'),
      env: { ...t.env, WEBHOOK_RETRY_SECONDS: 30 },
    };
    const queuedRetryIn = async () => {
      const { rows } = await t.database.pool.query<{ seconds: number }>(
        `SELECT extract(epoch FROM start_after - now())::float AS seconds FROM pgboss.job
          WHERE name = 'deliver-webhook' AND data->>'deliveryId' = $1 AND state = 'created' ORDER BY created_on DESC LIMIT 1`,
        [String(row!.id)],
      );
      return rows[0]?.seconds;
    };
    await attemptDelivery(ctx, row!.id);
    expect(await queuedRetryIn()).toBeGreaterThan(25);
    expect(await queuedRetryIn()).toBeLessThanOrEqual(30);
    await attemptDelivery(ctx, row!.id);
    expect(await queuedRetryIn()).toBeGreaterThan(110);
    expect(await queuedRetryIn()).toBeLessThanOrEqual(120);
    const [delivery] = (await client.get(`/api/webhooks/${hook.id}/deliveries`)).json() as WebhookDelivery[];
    expect(delivery).toMatchObject({ status: 'retrying', maxAttempts: 5 });
    expect(delivery!.attempts).toHaveLength(2);
  });

  it('fails a delivery at once when the signing secret cannot be opened (APP_SECRET changed), and still lists the webhook', async () => {
    const { client } = await signUp(t.app);
    const hook = await register(client, '/other-key');
    await t.database.db
      .update(webhooks)
      .set({ secretEncrypted: encryptSecret('whsec_x', 'another-app-secret-another-app-secret') })
      .where(eq(webhooks.id, hook.id));
    expect((await client.get('/api/webhooks')).json()).toEqual([
      expect.objectContaining({ id: hook.id, secretPreview: 'whsec_…' }),
    ]);
    const delivery = await settledDelivery(
      client,
      hook.id,
      (await client.post(`/api/webhooks/${hook.id}/test`)).json().id,
    );
    expect(delivery).toMatchObject({
      status: 'failed',
      attempts: [{ statusCode: null, error: expect.stringMatching(/^The signing secret cannot be read/) }],
    });
    expect(received).toEqual([]);
    // The server's own failure: the endpoint's failure streak, which pauses it, is not touched.
    const [row] = await t.database.db.select().from(webhooks).where(eq(webhooks.id, hook.id));
    expect(row!.failureStreak).toBe(0);
  });

  it('logs a receiver that never answers as a timeout', async () => {
    answers.set('/silent', (n) => (n === 1 ? 'silent' : 200));
    const { client } = await signUp(t.app);
    const hook = await register(client, '/silent');
    const delivery = await settledDelivery(
      client,
      hook.id,
      (await client.post(`/api/webhooks/${hook.id}/test`)).json().id,
    );
    expect(delivery.status).toBe('delivered');
    expect(delivery.attempts[0]).toMatchObject({ statusCode: null, error: 'No answer within 1 seconds' });
    expect(delivery.attempts[0]!.durationMs).toBeGreaterThanOrEqual(900);
    expect(delivery.attempts[1]).toMatchObject({ statusCode: 200 });
  });

  it('sends an event only to the webhooks subscribed to it', async () => {
    const { client, user } = await signUp(t.app);
    const bounced = await register(client, '/bounces', ['email.bounced']);
    await register(client, '/alerts', ['alert.created']);
    const data = {
      email_id: 'm-1',
      recipient: 'a@example.com',
      domain: 'example.com',
      bounce_type: 'hard',
      bounce_reason: '550 5.1.1',
      bounced_at: '2026-11-26T10:00:00Z',
    };
    const deliveries = await enqueueWebhookEvent(t.database.db, t.jobs, user.id, 'email.bounced', data);
    expect(deliveries.map((d) => d.webhookId)).toEqual([bounced.id]);
    await settledDelivery(client, bounced.id, deliveries[0]!.id);
    expect(received.map((r) => r.path)).toEqual(['/bounces']);
    expect(JSON.parse(received[0]!.body)).toMatchObject({ type: 'email.bounced', data });
  });

  it('refuses URLs that are not HTTPS or point at private, loopback, link-local or metadata addresses, and stores nothing', async () => {
    const { client } = await signUp(t.app);
    const refused = async (target: string, message: RegExp) => {
      const res = await client.post('/api/webhooks', { url: target, events: ['alert.created'] });
      expect(res.statusCode, target).toBe(400);
      expect(res.json()).toMatchObject({ code: 'validation_error', message: expect.stringMatching(message) });
    };
    await refused('http://example.com/hook', /^Webhook URLs must use HTTPS/);
    await refused('https://127.0.0.1/', /public address/);
    await refused('https://10.0.0.5/', /public address/);
    await refused('https://169.254.169.254/latest/meta-data/', /public address/);
    await refused('https://[::1]/', /public address/);
    // A private name and one that does not resolve get the same words: the answer maps no internal names.
    for (const host of ['private.receiver.test', 'nowhere.receiver.test']) {
      const res = await client.post('/api/webhooks', { url: `https://${host}/`, events: ['alert.created'] });
      expect(res.json()).toEqual({ code: 'validation_error', message: refusedHostMessage(host) });
    }
    await refused(`https://example.com/${'a'.repeat(2000)}`, /at most 2000/);
    expect((await client.get('/api/webhooks')).json()).toEqual([]);
  });

  it('refuses at delivery a host that now resolves to a private address, and follows no redirect', async () => {
    const { client } = await signUp(t.app);
    const hook = await register(client, '/rebound');
    dns.zone[HOST] = { A: ['10.0.0.5'] };
    const rebound = await settledDelivery(
      client,
      hook.id,
      (await client.post(`/api/webhooks/${hook.id}/test`)).json().id,
    );
    expect(rebound.status).toBe('failed');
    expect(rebound.attempts).toHaveLength(5);
    expect(rebound.attempts[0]).toMatchObject({
      statusCode: null,
      error: expect.stringMatching(/^Refused: the host resolves to a private/),
    });
    expect(received).toEqual([]);

    dns.zone[HOST] = { A: [RECEIVER_ADDRESS] };
    answers.set('/redirect', () => 'redirect');
    const redirecting = await register(client, '/redirect');
    const delivery = await settledDelivery(
      client,
      redirecting.id,
      (await client.post(`/api/webhooks/${redirecting.id}/test`)).json().id,
    );
    expect(delivery.status).toBe('failed');
    expect(delivery.attempts[0]).toMatchObject({
      statusCode: 302,
      error: expect.stringMatching(/^Redirect to https:\/\/127\.0\.0\.1:\d+\/ not followed/),
    });
    expect(privateHits).toBe(0);
  });

  it('tells subscribed receivers when a domain is verified and when a record starts failing, once per change', async () => {
    const { client } = await signUp(t.app);
    const hook = await register(client, '/domain-events', ['domain.verified', 'dns.validation_failed']);
    const other = await register(client, '/alerts-only', ['alert.created']);
    const domain = (await client.post('/api/domains', { domain: 'events-brand.com' })).json();
    dns.zone['events-brand.com'] = { TXT: ['v=spf1 ip4:192.0.2.0/24 -all'] };
    dns.zone['_dmarc.events-brand.com'] = { TXT: ['v=DMARC1; p=none; rua=mailto:dmarc@events-brand.com'] };
    dns.zone['_inboxpulse.events-brand.com'] = { TXT: [domain.verificationRecord.value] };
    const eventTypes = async () =>
      ((await client.get(`/api/webhooks/${hook.id}/deliveries`)).json() as WebhookDelivery[])
        .map((d) => d.eventType)
        .sort();

    // First check: verified, SPF and DMARC pass, no DKIM key at any selector.
    expect((await client.post(`/api/domains/${domain.id}/verify`)).json()).toMatchObject({
      isVerified: true,
      dkimStatus: 'missing',
    });
    expect(await eventTypes()).toEqual(['dns.validation_failed', 'domain.verified']);
    const bodies = await waitUntil(
      async () => received.filter((r) => r.path === '/domain-events'),
      'both domain events to arrive',
      {
        until: (r) => r.length === 2,
      },
    );
    expect(bodies.every((r) => r.signatureValid)).toBe(true);
    const envelopes = bodies.map((r) => JSON.parse(r.body)).sort((a, b) => a.type.localeCompare(b.type));
    expect(envelopes[0]).toMatchObject({
      type: 'dns.validation_failed',
      data: {
        domain: 'events-brand.com',
        record_type: 'DKIM',
        error: 'No DKIM record found',
        details: expect.any(String),
        failed_at: expect.any(String),
      },
    });
    expect(envelopes[1]).toMatchObject({
      type: 'domain.verified',
      data: { domain: 'events-brand.com', verified_at: expect.any(String) },
    });

    // Checked again with nothing changed: a failure that lasts is not told again.
    await client.post(`/api/domains/${domain.id}/verify`);
    expect(await eventTypes()).toHaveLength(2);

    // SPF removed: one new failure, for SPF.
    dns.zone['events-brand.com'] = { TXT: [] };
    await client.post(`/api/domains/${domain.id}/verify`);
    const deliveries = (await client.get(`/api/webhooks/${hook.id}/deliveries`)).json() as WebhookDelivery[];
    expect(deliveries.map((d) => d.eventType).sort()).toEqual([
      'dns.validation_failed',
      'dns.validation_failed',
      'domain.verified',
    ]);
    const spf = await waitUntil(
      async () => received.find((r) => r.path === '/domain-events' && JSON.parse(r.body).data.record_type === 'SPF'),
      'the SPF failure to arrive',
    );
    expect(JSON.parse(spf!.body).data).toMatchObject({ record_type: 'SPF', error: 'No SPF record found' });
    expect((await client.get(`/api/webhooks/${other.id}/deliveries`)).json()).toEqual([]);
  });

  it('queues again deliveries whose job was never queued or whose retry was lost, once they are long overdue', async () => {
    const { client, user } = await signUp(t.app);
    const hook = await register(client, '/stranded', ['webhook.test']);
    const sweep = () => sweepStrandedDeliveries({ db: t.database.db, env: t.env, jobs: t.jobs });
    const body = (id: string) => JSON.stringify({ id, type: 'webhook.test', created: 1, data: {} });
    // What a process that died between its commit and queueing the job leaves: deliveries nobody will attempt,
    // one never tried and one whose first attempt failed before its retry was queued.
    const [never, lost] = await insertDeliveries(t.database.db, [
      { webhookId: hook.id, userId: user.id, eventId: 'evt_never', eventType: 'webhook.test', body: body('evt_never') },
      {
        webhookId: hook.id,
        userId: user.id,
        eventId: 'evt_lost',
        eventType: 'webhook.test',
        body: body('evt_lost'),
        status: 'retrying',
        attempts: [{ at: new Date().toISOString(), statusCode: 500, error: 'HTTP 500', durationMs: 5 }],
      },
    ]);
    expect(await sweep()).toBe(0); // just written: their jobs may simply not have run yet
    await t.database.db.execute(
      sql`update webhook_deliveries set created_at = now() - interval '20 minutes' where id = ${never!.id}`,
    );
    await t.database.db.execute(
      sql`update webhook_deliveries set attempts = jsonb_set(attempts, '{0,at}', to_jsonb((now() - interval '20 minutes')::text)) where id = ${lost!.id}`,
    );
    expect(await sweep()).toBe(2);
    expect((await settledDelivery(client, hook.id, never!.id)).status).toBe('delivered');
    expect(await settledDelivery(client, hook.id, lost!.id)).toMatchObject({
      status: 'delivered',
      attempts: [{ statusCode: 500 }, { statusCode: 200 }],
    });
    expect(
      received
        .filter((r) => r.path === '/stranded')
        .map((r) => JSON.parse(r.body).id)
        .sort(),
    ).toEqual(['evt_lost', 'evt_never']);
    expect(await sweep()).toBe(0);
  });

  it('refuses unknown events, no events and bad ids with a 400 naming the problem', async () => {
    const { client } = await signUp(t.app);
    const unknown = await client.post('/api/webhooks', { url: url('/x'), events: ['alert.created', 'email.opened'] });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toMatch(/Unknown event: email\.opened/);
    const none = await client.post('/api/webhooks', { url: url('/x'), events: [] });
    expect(none.statusCode).toBe(400);
    expect(none.json().message).toMatch(/at least one event/);
    expect((await client.post('/api/webhooks/abc/test')).statusCode).toBe(400);
    expect((await client.get('/api/webhooks')).json()).toEqual([]);
  });

  it('keeps every webhook and delivery to its owner, and allows 20 webhooks an account', async () => {
    const owner = await signUp(t.app);
    const intruder = await signUp(t.app);
    const hook = await register(owner.client, '/owned');
    const delivery = (await owner.client.post(`/api/webhooks/${hook.id}/test`)).json();
    await settledDelivery(owner.client, hook.id, delivery.id);

    expect((await intruder.client.get(`/api/webhooks/${hook.id}/deliveries`)).statusCode).toBe(404);
    expect((await intruder.client.post(`/api/webhooks/${hook.id}/test`)).statusCode).toBe(404);
    expect((await intruder.client.post(`/api/webhooks/deliveries/${delivery.id}/redeliver`)).statusCode).toBe(404);
    expect((await intruder.client.delete(`/api/webhooks/${hook.id}`)).statusCode).toBe(404);
    expect(await intruder.client.get('/api/webhooks').then((r) => r.json())).toEqual([]);
    expect((await new TestClient(t.app).get('/api/webhooks')).statusCode).toBe(401);
    expect((await owner.client.get(`/api/webhooks/${hook.id}/deliveries`)).json()).toHaveLength(1);

    for (let i = 1; i < 20; i++) await register(owner.client, `/many-${i}`);
    const past = await owner.client.post('/api/webhooks', { url: url('/one-too-many'), events: ['alert.created'] });
    expect(past.statusCode).toBe(409);
    expect(past.json().message).toMatch(/at most 20 webhooks/);

    const deleted = await owner.client.delete(`/api/webhooks/${hook.id}`);
    expect(deleted.statusCode).toBe(204);
    expect((await owner.client.get(`/api/webhooks/${hook.id}/deliveries`)).statusCode).toBe(404);
    expect((await owner.client.get('/api/webhooks')).json()).toHaveLength(19);
  });
});
