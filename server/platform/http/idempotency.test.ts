import { createSocket, type Socket } from 'node:dgram';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newApiKey, setPlan, withKey } from '../../api-keys/api-keys.test-support';
import { fixture } from '../../dmarc/fixtures';
import { createTestApp, signUp, type TestApp } from '../../test/test-app';
import { waitUntil } from '../../test/wait-until';
import { IDEMPOTENCY_MESSAGES } from './idempotency';
import { purgeExpiredIdempotencyKeys } from './idempotency.repo';
import { RATE_RULES } from '../security/rate-limit';
import { countAttempt } from '../security/rate-limits.repo';

// A DNS server that never answers: a domain added with verifyDns: true is still being checked
// (each lookup waits out its timeout) while a second request with its Idempotency-Key arrives.
let silentDns: Socket;
let t: TestApp;
beforeAll(async () => {
  silentDns = createSocket('udp4');
  await new Promise<void>((resolve) => silentDns.bind(0, '127.0.0.1', resolve));
  t = await createTestApp({ env: { DNS_SERVERS: `127.0.0.1:${silentDns.address().port}` } });
});
afterAll(async () => {
  await t.close();
  silentDns.close();
});

async function post(cookie: string, url: string, body: unknown, key?: string) {
  return t.app.inject({
    method: 'POST',
    url,
    headers: { cookie, ...(key === undefined ? {} : { 'idempotency-key': key }) },
    payload: body as object,
  });
}

describe('Idempotency-Key on the POSTs that create things', () => {
  it('replays the first answer for the same key and request: one domain, the same body twice', async () => {
    const { client } = await signUp(t.app);
    const first = await post(client.cookie!, '/api/domains', { domain: 'once.example.com' }, 'create-once-1');
    expect(first.statusCode).toBe(200);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const again = await post(client.cookie!, '/api/domains', { domain: 'once.example.com' }, 'create-once-1');
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.headers['content-type']).toMatch(/^application\/json/);
    expect(again.json()).toEqual(first.json());
    expect((await client.get('/api/domains')).json()).toHaveLength(1);

    // Without a key, the same request is a new one (here refused: the domain exists).
    expect((await post(client.cookie!, '/api/domains', { domain: 'once.example.com' })).statusCode).toBe(409);
  });

  it('works the same for a bearer key: the same user, the same keys', async () => {
    const { client, user } = await signUp(t.app);
    await setPlan(t, user.id, 'professional');
    const apiKey = await newApiKey(client);
    const body = { domain: 'by-key.example.com' };
    const first = await withKey(t.app, apiKey, 'POST', '/api/domains', body, { 'idempotency-key': 'script-run-7' });
    expect(first.statusCode).toBe(200);
    const retried = await withKey(t.app, apiKey, 'POST', '/api/domains', body, { 'idempotency-key': 'script-run-7' });
    expect(retried.headers['idempotent-replayed']).toBe('true');
    expect(retried.headers['x-ratelimit-limit']).toBeDefined();
    expect(retried.body).toBe(first.body);
    // The browser session of the same user shares the key space.
    expect((await post(client.cookie!, '/api/domains', body, 'script-run-7')).headers['idempotent-replayed']).toBe(
      'true',
    );
    expect((await client.get('/api/domains')).json()).toHaveLength(1);
  });

  it('keeps a 4xx answer too, and replays it', async () => {
    const { client } = await signUp(t.app);
    await client.post('/api/domains', { domain: 'taken.example.com' });
    const refused = await post(client.cookie!, '/api/domains', { domain: 'taken.example.com' }, 'dup');
    expect(refused.statusCode).toBe(409);
    await client.delete(`/api/domains/${(await client.get('/api/domains')).json()[0].id}`);
    const replayed = await post(client.cookie!, '/api/domains', { domain: 'taken.example.com' }, 'dup');
    expect(replayed.statusCode).toBe(409);
    expect(replayed.json()).toEqual(refused.json());
  });

  it('the same key with another request is a 422; keys are per user', async () => {
    const alice = await signUp(t.app);
    const bob = await signUp(t.app);
    expect((await post(alice.client.cookie!, '/api/ip-addresses', { ipAddress: '8.8.8.8' }, 'k')).statusCode).toBe(200);
    const other = await post(alice.client.cookie!, '/api/ip-addresses', { ipAddress: '8.8.4.4' }, 'k');
    expect(other.statusCode).toBe(422);
    expect(other.json()).toEqual({ code: 'idempotency_key_reused', message: IDEMPOTENCY_MESSAGES.reused });
    // Another route with the same key is another request too.
    expect(
      (
        await post(
          alice.client.cookie!,
          '/api/alerts/rules',
          { name: 'x', type: 'bounceRate', threshold: { warning: 3, critical: 5 } },
          'k',
        )
      ).statusCode,
    ).toBe(422);
    expect((await alice.client.get('/api/ip-addresses')).json()).toHaveLength(1);

    // Bob's "k" is his own.
    const bobs = await post(bob.client.cookie!, '/api/ip-addresses', { ipAddress: '8.8.4.4' }, 'k');
    expect(bobs.statusCode).toBe(200);
    expect(bobs.headers['idempotent-replayed']).toBeUndefined();
  });

  it('answers 409 while the first request is still running, then replays its answer', async () => {
    const { client, user } = await signUp(t.app);
    const body = { domain: 'slow-check.example.com', verifyDns: true };
    const first = post(client.cookie!, '/api/domains', body, 'slow');
    await waitUntil(
      async () =>
        (
          await t.database.pool.query(
            `SELECT 1 FROM idempotency_keys WHERE user_id = $1 AND key = 'slow' AND status IS NULL`,
            [user.id],
          )
        ).rowCount === 1,
      'the first request to claim the key',
    );
    const during = await post(client.cookie!, '/api/domains', body, 'slow');
    expect(during.statusCode).toBe(409);
    expect(during.json()).toEqual({ code: 'conflict', message: IDEMPOTENCY_MESSAGES.inProgress });
    const done = await first;
    const after = await post(client.cookie!, '/api/domains', body, 'slow');
    expect(after.statusCode).toBe(done.statusCode);
    expect(after.body).toBe(done.body);
  }, 30_000);

  it('covers inbox tests, webhooks, alert rules and DMARC uploads (a raw file body)', async () => {
    const { client } = await signUp(t.app);
    const report = fixture('aggregate/!example.com!1538204542!1538463818.xml');
    const upload = (key: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/dmarc/upload?filename=report.xml',
        headers: { cookie: client.cookie!, 'content-type': 'application/xml', 'idempotency-key': key },
        payload: report,
      });
    const stored = await upload('report-1');
    expect(stored.statusCode, stored.body).toBe(200);
    const replayed = await upload('report-1');
    expect(replayed.headers['idempotent-replayed']).toBe('true');
    expect(replayed.json()).toEqual(stored.json());

    const rule = { name: 'Bounces', type: 'bounceRate', threshold: { warning: 3, critical: 5 } };
    const calls: [string, unknown][] = [
      ['/api/alerts/rules', rule],
      ['/api/inbox-tests', { testType: 'automatic' }],
      ['/api/webhooks', { url: 'https://hooks.example.com/inboxpulse', events: ['domain.verified'] }],
    ];
    for (const [url, body] of calls) {
      const firstAnswer = await post(client.cookie!, url, body, `${url}-1`);
      const second = await post(client.cookie!, url, body, `${url}-1`);
      expect(second.headers['idempotent-replayed'], url).toBe('true');
      expect(second.statusCode, url).toBe(firstAnswer.statusCode);
      expect(second.body, url).toBe(firstAnswer.body);
    }
    expect((await client.get('/api/alerts/rules')).json()).toHaveLength(1);
  });

  it('refuses a key that is not 1-255 printable ASCII characters', async () => {
    const { client } = await signUp(t.app);
    for (const key of ['', 'x'.repeat(256), 'tab\there', 'é']) {
      const res = await post(client.cookie!, '/api/domains', { domain: 'bad-key.example.com' }, key);
      expect(res.statusCode, JSON.stringify(key)).toBe(400);
      expect(res.json().message).toBe(IDEMPOTENCY_MESSAGES.badKey);
    }
    expect((await client.get('/api/domains')).json()).toHaveLength(0);
  });

  it('forgets keys after 24 hours: the maintenance purge drops them and the key can be used again', async () => {
    const { client, user } = await signUp(t.app);
    expect((await post(client.cookie!, '/api/ip-addresses', { ipAddress: '1.1.1.1' }, 'daily')).statusCode).toBe(200);
    await t.database.pool.query(
      `UPDATE idempotency_keys SET created_at = now() - interval '25 hours' WHERE user_id = $1`,
      [user.id],
    );
    // Past 24 hours the key is free even before the purge runs.
    const reused = await post(client.cookie!, '/api/ip-addresses', { ipAddress: '1.0.0.1' }, 'daily');
    expect(reused.statusCode).toBe(200);
    expect(reused.headers['idempotent-replayed']).toBeUndefined();

    await t.database.pool.query(
      `UPDATE idempotency_keys SET created_at = now() - interval '25 hours' WHERE user_id = $1`,
      [user.id],
    );
    expect(await purgeExpiredIdempotencyKeys(t.database.db)).toBeGreaterThanOrEqual(1);
    const { rowCount } = await t.database.pool.query(`SELECT 1 FROM idempotency_keys WHERE user_id = $1`, [user.id]);
    expect(rowCount).toBe(0);
  });

  it('caps the new keys one user stores in an hour: past it a new key is a 429, a stored key still replays', async () => {
    const { client, user } = await signUp(t.app);
    const first = await post(client.cookie!, '/api/ip-addresses', { ipAddress: '9.9.9.9' }, 'kept-key');
    expect(first.statusCode).toBe(200);
    // The rest of the hour's allowance used up (the first key counted one).
    const rule = RATE_RULES.idempotencyKeysPerUser;
    await countAttempt(t.database.db, `${rule.name}:${user.id}`, rule.windowSeconds, rule.limit - 1);

    const refused = await post(client.cookie!, '/api/ip-addresses', { ipAddress: '149.112.112.112' }, 'one-too-many');
    expect(refused.statusCode).toBe(429);
    expect(refused.json().message).toBe(IDEMPOTENCY_MESSAGES.tooManyKeys(60));
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    const { rows } = await t.database.pool.query(`SELECT key FROM idempotency_keys WHERE user_id = $1`, [user.id]);
    expect(rows.map((r) => r.key)).toEqual(['kept-key']);

    const replayed = await post(client.cookie!, '/api/ip-addresses', { ipAddress: '9.9.9.9' }, 'kept-key');
    expect(replayed.headers['idempotent-replayed']).toBe('true');
    expect(replayed.body).toBe(first.body);
    // Without a key the request is served: the cap is on stored keys, not on the account's work.
    expect((await post(client.cookie!, '/api/ip-addresses', { ipAddress: '149.112.112.112' })).statusCode).toBe(200);
  });
});
