// Two app instances on one database, as two web processes behind a load balancer run: the hourly
// API quota holds across both without a database write per request (ADR 026), and a revoked key is
// refused by both (migration 0017's trigger), as sessions are (session-cache.processes.test.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiRateLimiter } from '../platform/http/api-rate-limit';
import { createTestApp, signUp, type TestApp } from '../test/test-app';
import { waitUntil } from '../test/wait-until';
import { newApiKey, setPlan, withKey } from './api-keys.test-support';
import { queriesDuring } from '../test/queries-during';

const LIMIT = 10;

let a: TestApp;
let b: TestApp;
beforeAll(async () => {
  a = await createTestApp({ env: { API_RATE_LIMIT_OVERRIDE: String(LIMIT) } });
  b = await createTestApp({ sameDatabaseAs: a, env: { API_RATE_LIMIT_OVERRIDE: String(LIMIT) } });
});
afterAll(async () => {
  await b?.close();
  await a?.close();
});

async function professionalKey(): Promise<string> {
  const { client, user } = await signUp(a.app);
  await setPlan(a, user.id, 'professional');
  return newApiKey(client);
}

describe('the hourly API quota across two processes', () => {
  it('lets LIMIT requests through in all, says what is left on every answer, then 429 with Retry-After in both', async () => {
    const key = await professionalKey();
    const hourEnd = Math.ceil((Date.now() + 1) / 3_600_000) * 3600;
    const statuses: number[] = [];
    const remaining: number[] = [];
    for (let i = 0; i < LIMIT; i++) {
      const res = await withKey(i % 2 === 0 ? a.app : b.app, key, 'GET', '/api/domains');
      statuses.push(res.statusCode);
      remaining.push(Number(res.headers['x-ratelimit-remaining']));
      expect(res.headers['x-ratelimit-limit']).toBe(String(LIMIT));
      // The end of the database's clock hour (this machine's clock and the database's agree to the second).
      expect(Math.abs(Number(res.headers['x-ratelimit-reset']) - hourEnd)).toBeLessThanOrEqual(1);
    }
    expect(statuses).toEqual(Array(LIMIT).fill(200));
    // A block of one request at this limit: the counter is exact.
    expect(remaining).toEqual(Array.from({ length: LIMIT }, (_, i) => LIMIT - 1 - i));

    for (const t of [a, b]) {
      const res = await withKey(t.app, key, 'GET', '/api/domains');
      expect(res.statusCode).toBe(429);
      expect(res.json()).toMatchObject({ code: 'rate_limited' });
      expect(res.json().message).toMatch(
        /^API rate limit reached \(10 requests an hour\)\. Try again in \d+ minutes?\.$/,
      );
      expect(res.headers['x-ratelimit-remaining']).toBe('0');
      const retryAfter = Number(res.headers['retry-after']);
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(3600);
      expect(res.headers['set-cookie']).toBeUndefined();
      // Refused from memory: the key is cached and the hour's quota is known to be gone.
      expect(await queriesDuring(t.database.pool, () => withKey(t.app, key, 'GET', '/api/domains'))).toBe(0);
    }
  });

  it("one user's quota is not another's; cookie sessions are not counted", async () => {
    const { client, user } = await signUp(a.app);
    await setPlan(a, user.id, 'professional');
    const key = await newApiKey(client);
    const other = await professionalKey();
    for (let i = 0; i < LIMIT; i++) expect((await withKey(a.app, other, 'GET', '/api/domains')).statusCode).toBe(200);
    expect((await withKey(a.app, other, 'GET', '/api/domains')).statusCode).toBe(429);
    for (let i = 0; i < LIMIT + 2; i++) expect((await client.get('/api/domains')).statusCode).toBe(200);
    const first = await withKey(b.app, key, 'GET', '/api/domains');
    expect(first.statusCode).toBe(200);
    expect(first.headers['x-ratelimit-remaining']).toBe(String(LIMIT - 1));
  });

  it('leases blocks: two processes share a larger limit exactly, with one query per block', async () => {
    const { user } = await signUp(a.app);
    const limit = 200; // blocks of 10 at first, smaller near the end
    const onA = new ApiRateLimiter(a.database.db);
    const onB = new ApiRateLimiter(b.database.db);
    let allowed = 0;
    const queries = await queriesDuring(a.database.pool, async () => {
      for (let i = 0; i < 2 * limit; i++) if ((await (i % 2 === 0 ? onA : onB).take(user.id, limit)).allowed) allowed++;
    });
    expect(allowed).toBe(limit);
    expect(queries).toBeLessThan(limit / 5);
    // Concurrent requests in one process wait for one lease between them.
    const { user: second } = await signUp(a.app);
    const fresh = new ApiRateLimiter(a.database.db);
    const burst = await queriesDuring(a.database.pool, () =>
      Promise.all(Array.from({ length: 10 }, () => fresh.take(second.id, limit))),
    );
    expect(burst).toBe(1);
  });
});

describe('API keys cached in two processes', () => {
  it('a revoked or replaced key is refused at once where it happened and within a second in the other', async () => {
    const { client, user } = await signUp(a.app);
    await setPlan(a, user.id, 'professional');
    const key = await newApiKey(client);
    for (const t of [a, b]) expect((await withKey(t.app, key, 'GET', '/api/domains')).statusCode).toBe(200);
    const replacement = (await client.post('/api/api-keys/regenerate')).json().apiKey;
    expect((await withKey(a.app, key, 'GET', '/api/domains')).statusCode).toBe(401);
    await waitUntil(
      async () => (await withKey(b.app, key, 'GET', '/api/domains')).statusCode === 401,
      'B refuses the replaced key',
      { timeoutMs: 1000 },
    );
    expect((await withKey(b.app, replacement, 'GET', '/api/domains')).statusCode).toBe(200);

    await client.delete('/api/api-keys');
    expect((await withKey(a.app, replacement, 'GET', '/api/domains')).statusCode).toBe(401);
    await waitUntil(
      async () => (await withKey(b.app, replacement, 'GET', '/api/domains')).statusCode === 401,
      'B refuses the revoked key',
      {
        timeoutMs: 1000,
      },
    );
  });

  it('account deletion, by whatever means, shuts the key out of both', async () => {
    const { client, user } = await signUp(a.app);
    await setPlan(a, user.id, 'professional');
    const key = await newApiKey(client);
    for (const t of [a, b]) expect((await withKey(t.app, key, 'GET', '/api/domains')).statusCode).toBe(200);
    await a.database.pool.query(`DELETE FROM users WHERE id = $1`, [user.id]);
    for (const t of [a, b]) {
      await waitUntil(
        async () => (await withKey(t.app, key, 'GET', '/api/domains')).statusCode === 401,
        'the deleted account refused',
        { timeoutMs: 1000 },
      );
    }
  });
});
