import { and, eq, inArray, sql } from 'drizzle-orm';
import { readFileSync, rmSync } from 'node:fs';
import { createServer as createHttpsServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Webhook } from '@contracts/webhooks';
import { webhookDeliveries, webhooks } from '../platform/db/schema/webhooks';
import { startDnsServer, type TestDnsServer } from '../test/dns-server';
import { hasOpenssl, makeSelfSignedCert } from '../test/self-signed-cert';
import { createMailingTestApp, signUp, type TestClient, type TestApp } from '../test/test-app';
import type { SmtpSink } from '../test/smtp-sink';
import { waitUntil } from '../test/wait-until';
import {
  enqueueWebhookEvent,
  queueWebhookDeliveries,
  recordWebhookEvents,
  sweepStrandedDeliveries,
  WEBHOOK_BREAKER,
  WEBHOOK_IN_FLIGHT,
} from './webhooks.service';

/*
 * Issue 36, section 1: one account's endpoint that never answers must not hold up another account's
 * alert. Real receivers over loopback HTTPS, the real queue and worker, the real SMTP sink for the mail.
 */

const HOST = 'fair.receiver.test';
const RECEIVER_ADDRESS = '127.0.0.2';

/** What a receiver path does with a request: never answer, or answer a status (after a delay). */
type Answer = 'silent' | { status: number; delayMs?: number };

describe.skipIf(!hasOpenssl)('fair webhook delivery (needs openssl to make a test certificate)', () => {
  let t: TestApp & { smtp: SmtpSink };
  let dns: TestDnsServer;
  let receiver: Server;
  let port = 0;
  let made: ReturnType<typeof makeSelfSignedCert>;
  const answers = new Map<string, Answer>();
  /** Requests by path, in the order they arrived, with the event type. */
  let received: { path: string; type: string; at: number }[] = [];
  /** Requests open at the receiver now, and the most ever open at once, by account (the path's first segment) and by path. */
  const open = new Map<string, number>();
  const mostOpen = new Map<string, number>();

  function opened(key: string, by: number) {
    const now = (open.get(key) ?? 0) + by;
    open.set(key, now);
    mostOpen.set(key, Math.max(mostOpen.get(key) ?? 0, now));
  }

  beforeAll(async () => {
    made = makeSelfSignedCert(HOST);
    receiver = createHttpsServer({ key: readFileSync(made.key), cert: readFileSync(made.cert) }, (req, res) => {
      const path = req.url ?? '/';
      const account = path.split('/')[1]!;
      opened(account, 1);
      opened(path, 1);
      res.on('close', () => {
        opened(account, -1);
        opened(path, -1);
      });
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push({ path, type: JSON.parse(Buffer.concat(chunks).toString('utf8')).type, at: Date.now() });
        const answer = answers.get(path) ?? { status: 200 };
        if (answer === 'silent') return; // accepts the request and never answers: the sender's timeout ends it
        setTimeout(() => res.writeHead(answer.status).end(), answer.delayMs ?? 0);
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, RECEIVER_ADDRESS, resolve));
    port = (receiver.address() as AddressInfo).port;
    dns = await startDnsServer({ [HOST]: { A: [RECEIVER_ADDRESS] } });
    t = await createMailingTestApp({
      DNS_SERVERS: dns.address,
      OUTBOUND_ALLOW_ADDRESSES: RECEIVER_ADDRESS,
      OUTBOUND_CA_FILE: made.cert,
      WEBHOOK_RETRY_SECONDS: '0',
      // The attack's receivers are given the product's full 10 seconds before an attempt times out.
      WEBHOOK_TIMEOUT_MS: '10000',
    });
  });
  afterAll(async () => {
    await t?.close();
    await dns?.close();
    receiver?.closeAllConnections();
    receiver?.close();
    if (made) rmSync(made.dir, { recursive: true, force: true });
  });
  beforeEach(() => {
    received = [];
  });

  const url = (path: string) => `https://${HOST}:${port}${path}`;

  async function register(client: TestClient, path: string, events: string[]): Promise<number> {
    const res = await client.post('/api/webhooks', { url: url(path), events });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().id;
  }

  /** `count` email.delivered events in one batch, as the MTA event intake records and queues them. */
  async function bulkEvents(userId: number, count: number): Promise<number[]> {
    const data = Array.from({ length: count }, (_, i) => ({ email_id: `msg-${i}`, recipient: `r${i}@example.com` }));
    const ids = await t.database.db.transaction((tx) => recordWebhookEvents(tx, userId, 'email.delivered', data));
    await queueWebhookDeliveries(t.jobs, ids);
    return ids;
  }

  async function webhookOf(client: TestClient, id: number): Promise<Webhook> {
    return ((await client.get('/api/webhooks')).json() as Webhook[]).find((w) => w.id === id)!;
  }

  async function deliveriesOf(webhookId: number) {
    return t.database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.webhookId, webhookId));
  }

  it("delivers another account's alert within 5 s while one account's three endpoints never answer 200 bulk events each, never more than the limits in flight", async () => {
    const attacker = await signUp(t.app);
    // Three endpoints that never answer: together more than the account may have in flight.
    for (const n of [1, 2, 3]) {
      answers.set(`/attacker/${n}`, 'silent');
      await register(attacker.client, `/attacker/${n}`, ['email.delivered']);
    }
    const victim = await signUp(t.app);
    await register(victim.client, '/victim/alerts', ['alert.created']);

    await bulkEvents(attacker.user.id, 200);
    // The attack holds the receivers: the worker's slots are taken by requests that never end.
    await waitUntil(() => open.get('attacker') ?? 0, 'the attacker endpoints to hold requests', {
      until: (n) => n >= WEBHOOK_IN_FLIGHT.perAccount,
    });

    const raised = Date.now();
    await enqueueWebhookEvent(t.database.db, t.jobs, victim.user.id, 'alert.created', { alert_id: 1 });
    const arrived = await waitUntil(
      () => received.find((r) => r.path === '/victim/alerts'),
      "the victim's alert at its receiver",
      { timeoutMs: 30_000 },
    );
    const latencyMs = arrived!.at - raised;
    expect(latencyMs, `alert delivered ${latencyMs} ms after it was raised`).toBeLessThanOrEqual(5_000);

    // Let the attempts time out and the next ones start: the limits hold across rounds.
    await waitUntil(() => received.filter((r) => r.path.startsWith('/attacker/')).length, 'a second round', {
      until: (n) => n > WEBHOOK_IN_FLIGHT.perAccount,
      timeoutMs: 25_000,
    });
    expect(mostOpen.get('attacker')).toBe(WEBHOOK_IN_FLIGHT.perAccount);
    // Two endpoints can hold all the account's slots, so the third may never have been asked at all.
    for (const n of [1, 2, 3])
      expect(mostOpen.get(`/attacker/${n}`) ?? 0).toBeLessThanOrEqual(WEBHOOK_IN_FLIGHT.perEndpoint);
    // Waiting deliveries used no attempt.
    const attempted = await t.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(webhookDeliveries)
      .where(
        and(eq(webhookDeliveries.userId, attacker.user.id), sql`jsonb_array_length(${webhookDeliveries.attempts}) > 0`),
      );
    expect(attempted[0]!.n).toBeLessThanOrEqual(received.filter((r) => r.path.startsWith('/attacker/')).length);

    await t.database.db.delete(webhooks).where(eq(webhooks.userId, attacker.user.id));
  }, 60_000);

  it("sends an account's alert ahead of its bulk event notifications waiting for a slot", async () => {
    const { client, user } = await signUp(t.app);
    answers.set('/ordered/all', { status: 200, delayMs: 300 });
    await register(client, '/ordered/all', ['email.delivered', 'alert.created']);
    await bulkEvents(user.id, 20);
    await waitUntil(() => received.length, 'the first bulk events to be in flight', { until: (n) => n >= 1 });
    await enqueueWebhookEvent(t.database.db, t.jobs, user.id, 'alert.created', { alert_id: 2 });

    await waitUntil(() => received.length, 'every event at the receiver', {
      until: (n) => n === 21,
      timeoutMs: 30_000,
    });
    const position = received.findIndex((r) => r.type === 'alert.created');
    // Only the bulk events already in flight (and those their finishing attempts woke with it) come first.
    expect(position, received.map((r) => r.type).join(', ')).toBeLessThanOrEqual(
      WEBHOOK_IN_FLIGHT.perEndpoint + WEBHOOK_IN_FLIGHT.perAccount,
    );
  }, 45_000);

  it('pauses an endpoint that keeps failing, keeps its pending deliveries without using their attempts, mails its owner once, and resumes on a delivered probe', async () => {
    const { client, user } = await signUp(t.app);
    const path = '/breaker/hook';
    answers.set(path, { status: 500 });
    const id = await register(client, path, ['email.bounced']);
    const first = await enqueueWebhookEvent(t.database.db, t.jobs, user.id, 'email.bounced', { email_id: 'b1' });

    // Five failed attempts in a row pause the endpoint.
    const paused = await waitUntil(() => webhookOf(client, id), 'the webhook to be paused', {
      until: (w) => w.pausedUntil !== undefined,
    });
    expect(paused.pauseReason).toBe('HTTP 500');
    const pauseSeconds = (Date.parse(paused.pausedUntil!) - Date.now()) / 1000;
    expect(pauseSeconds).toBeGreaterThan(WEBHOOK_BREAKER.pauseSeconds - 30);
    expect(pauseSeconds).toBeLessThanOrEqual(WEBHOOK_BREAKER.pauseSeconds);
    expect(received.filter((r) => r.path === path)).toHaveLength(WEBHOOK_BREAKER.threshold);

    // The owner is told once, with the endpoint's origin and the last error, and no path or secret.
    const pauseMails = () =>
      t.smtp.messages.filter(
        (m) => m.subject?.startsWith('Webhook deliveries paused') && JSON.stringify(m.to).includes(user.email),
      );
    const [mail] = await waitUntil(pauseMails, 'the mail about the pause', { until: (mails) => mails.length > 0 });
    expect(mail!.subject).toBe(`Webhook deliveries paused: ${HOST}:${port}`);
    expect(mail!.text).toContain(`Deliveries to your webhook https://${HOST}:${port} are paused until`);
    expect(mail!.text).toContain('because the endpoint kept failing: 5 attempts in a row failed.');
    expect(mail!.text).toContain('Last error: HTTP 500');
    expect(mail!.text).not.toContain(path);
    expect(mail!.text).not.toContain('whsec_');

    // Events during the pause wait, and use none of their attempts.
    const during: number[] = [];
    for (const n of [2, 3, 4])
      during.push((await enqueueWebhookEvent(t.database.db, t.jobs, user.id, 'email.bounced', { n }))[0]!.id);
    await waitUntil(
      async () =>
        (
          await t.database.pool.query(
            `SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'deliver-webhook' AND state = 'created'
             AND start_after > now() + interval '1 minute' AND (data->>'deliveryId')::int = ANY($1)`,
            [during],
          )
        ).rows[0].n as number,
      'the paused deliveries to wait for the end of the pause',
      { until: (n) => n === during.length },
    );
    expect(received.filter((r) => r.path === path)).toHaveLength(WEBHOOK_BREAKER.threshold);
    // However long they wait, the sweep leaves them alone while the pause lasts: their jobs are queued for its end.
    await t.database.db
      .update(webhookDeliveries)
      .set({ createdAt: sql`now() - interval '1 hour'` })
      .where(inArray(webhookDeliveries.id, during));
    expect(await sweepStrandedDeliveries({ db: t.database.db, env: t.env, jobs: t.jobs })).toBe(0);
    expect((await deliveriesOf(id)).filter((d) => during.includes(d.id)).map((d) => d.attempts.length)).toEqual([
      0, 0, 0,
    ]);

    // The pause runs out (moved into the past here): one probe tries the endpoint, still failing; the pause starts again, with no second mail.
    const startQueuedAttemptsNow = async () =>
      t.database.pool.query(
        `UPDATE pgboss.job SET start_after = now() WHERE name = 'deliver-webhook' AND state = 'created' AND (data->>'deliveryId')::int = ANY($1)`,
        [(await deliveriesOf(id)).map((d) => d.id)],
      );
    const endPause = async () => {
      await t.database.db
        .update(webhooks)
        .set({ pausedUntil: sql`now() - interval '1 second'` })
        .where(eq(webhooks.id, id));
      await startQueuedAttemptsNow();
    };
    await endPause();
    await waitUntil(() => received.filter((r) => r.path === path).length, 'the probe', {
      until: (n) => n === WEBHOOK_BREAKER.threshold + 1,
    });
    const again = await waitUntil(() => webhookOf(client, id), 'the pause to start again', {
      until: (w) => w.pausedUntil !== undefined && Date.parse(w.pausedUntil) > Date.now(),
    });
    // A failed probe doubles the pause.
    expect(Date.parse(again.pausedUntil!) - Date.now()).toBeGreaterThan((2 * WEBHOOK_BREAKER.pauseSeconds - 30) * 1000);
    expect(received.filter((r) => r.path === path)).toHaveLength(WEBHOOK_BREAKER.threshold + 1);

    // The endpoint answers again: the next probe is delivered, the breaker closes, and every waiting event follows.
    answers.set(path, { status: 200 });
    await endPause();
    // The failed probe's attempt records the new pause first and then queues the deliveries it wakes for that pause's
    // end: on a busy machine that can come after endPause. Each look starts such late jobs too, as the pause's end would.
    const settled = await waitUntil(
      async () => {
        await startQueuedAttemptsNow();
        return deliveriesOf(id);
      },
      'the waiting deliveries to be delivered',
      {
        until: (rows) => rows.filter((d) => during.includes(d.id)).every((d) => d.status === 'delivered'),
        timeoutMs: 20_000,
      },
    );
    for (const d of settled.filter((row) => during.includes(row.id))) expect(d.attempts.length).toBeLessThanOrEqual(2);
    expect(settled.find((d) => d.id === first[0]!.id)!.status).toBe('failed');
    expect(await webhookOf(client, id)).not.toHaveProperty('pausedUntil');
    expect(pauseMails()).toHaveLength(1);
  }, 60_000);

  it("shows a webhook's pause only to its owner", async () => {
    const owner = await signUp(t.app);
    const other = await signUp(t.app);
    const id = await register(owner.client, '/private/hook', ['email.bounced']);
    await t.database.db
      .update(webhooks)
      .set({ failureStreak: 5, pausedUntil: sql`now() + interval '5 minutes'`, lastError: 'HTTP 503' })
      .where(inArray(webhooks.id, [id]));
    expect(await webhookOf(owner.client, id)).toMatchObject({
      pausedUntil: expect.any(String),
      pauseReason: 'HTTP 503',
    });
    expect((await other.client.get('/api/webhooks')).json()).toEqual([]);
  });
});
