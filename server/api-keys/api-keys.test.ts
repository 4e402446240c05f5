import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  API_KEY_PREFIX,
  ApiKeyStatus,
  GeneratedApiKey,
  GeneratedWebhookToken,
  WEBHOOK_TOKEN_PREFIX,
  WebhookTokenStatus,
} from '@contracts/api-keys';
import { hashToken } from '../platform/security/tokens';
import { createTestApp, signUp, TestClient, type TestApp } from '../test/test-app';
import { waitUntil } from '../test/wait-until';
import { webhookTokenOwner } from './api-keys.service';
import { newApiKey, setPlan, withKey } from './api-keys.test-support';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** A signed-in professional user with an API key. */
async function professionalWithKey() {
  const { client, user } = await signUp(t.app);
  await setPlan(t, user.id, 'professional');
  return { client, user, key: await newApiKey(client) };
}

async function storedText(table: string, userId: number): Promise<string> {
  const { rows } = await t.database.pool.query(`SELECT * FROM ${table} WHERE user_id = $1`, [userId]);
  return JSON.stringify(rows);
}

describe('API key management (Settings)', () => {
  it('generates one key, shown whole once, stored only as its hash with a preview', async () => {
    const { client, user } = await signUp(t.app);
    expect(ApiKeyStatus.parse((await client.get('/api/api-keys/status')).json())).toEqual({
      hasApiKey: false,
      keyPreview: null,
      createdAt: null,
      lastUsedAt: null,
    });

    const generated = GeneratedApiKey.parse((await client.post('/api/api-keys/generate')).json());
    expect(generated.apiKey).toMatch(new RegExp(`^${API_KEY_PREFIX}[A-Za-z0-9_-]{43}$`));
    expect(generated.keyPreview).toBe(`${generated.apiKey.slice(0, API_KEY_PREFIX.length + 4)}…`);

    const status = (await client.get('/api/api-keys/status')).json();
    expect(status).toEqual({
      hasApiKey: true,
      keyPreview: generated.keyPreview,
      createdAt: generated.createdAt,
      lastUsedAt: null,
    });
    expect(JSON.stringify(status)).not.toContain(generated.apiKey);

    const stored = await storedText('api_keys', user.id);
    expect(stored).toContain(hashToken(generated.apiKey));
    expect(stored).not.toContain(generated.apiKey);

    const again = await client.post('/api/api-keys/generate');
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({
      code: 'conflict',
      message: 'You already have an API key: regenerate it to get a new one',
    });
  });

  it('regenerate replaces the key; revoke removes it; revoking nothing is a 404; signed out is a 401', async () => {
    const { client } = await signUp(t.app);
    const first = (await client.post('/api/api-keys/generate')).json();
    const second = GeneratedApiKey.parse((await client.post('/api/api-keys/regenerate')).json());
    expect(second.apiKey).not.toBe(first.apiKey);
    expect((await client.get('/api/api-keys/status')).json().keyPreview).toBe(second.keyPreview);

    expect((await client.delete('/api/api-keys')).json()).toEqual({ message: 'API key revoked' });
    expect((await client.get('/api/api-keys/status')).json().hasApiKey).toBe(false);
    expect((await client.delete('/api/api-keys')).statusCode).toBe(404);

    const anonymous = new TestClient(t.app);
    expect((await anonymous.get('/api/api-keys/status')).statusCode).toBe(401);
    expect((await anonymous.post('/api/api-keys/generate')).statusCode).toBe(401);
  });

  it('webhook tokens: the same four calls, stored as a hash, found by their owner', async () => {
    const { client, user } = await signUp(t.app);
    expect(WebhookTokenStatus.parse((await client.get('/api/webhook-tokens/status')).json())).toEqual({
      hasToken: false,
      tokenPreview: null,
      createdAt: null,
    });
    const generated = GeneratedWebhookToken.parse((await client.post('/api/webhook-tokens/generate')).json());
    expect(generated.token).toMatch(new RegExp(`^${WEBHOOK_TOKEN_PREFIX}[A-Za-z0-9_-]{43}$`));
    expect(generated.tokenPreview).toBe(`${generated.token.slice(0, WEBHOOK_TOKEN_PREFIX.length + 4)}…`);
    expect((await client.post('/api/webhook-tokens/generate')).statusCode).toBe(409);
    expect(await storedText('webhook_tokens', user.id)).not.toContain(generated.token);
    expect(await webhookTokenOwner(t.database.db, generated.token)).toBe(user.id);

    const regenerated = (await client.post('/api/webhook-tokens/regenerate')).json();
    expect(await webhookTokenOwner(t.database.db, generated.token)).toBeUndefined();
    expect(await webhookTokenOwner(t.database.db, regenerated.token)).toBe(user.id);
    expect((await client.get('/api/webhook-tokens/status')).json()).toMatchObject({
      hasToken: true,
      tokenPreview: regenerated.tokenPreview,
    });

    expect((await client.delete('/api/webhook-tokens')).json()).toEqual({ message: 'Webhook token revoked' });
    expect(await webhookTokenOwner(t.database.db, regenerated.token)).toBeUndefined();
    expect((await client.delete('/api/webhook-tokens')).statusCode).toBe(404);
  });

  it('deleting the user deletes their key and token', async () => {
    const { client, user } = await signUp(t.app);
    await client.post('/api/api-keys/generate');
    await client.post('/api/webhook-tokens/generate');
    await t.database.pool.query(`DELETE FROM users WHERE id = $1`, [user.id]);
    expect(await storedText('api_keys', user.id)).toBe('[]');
    expect(await storedText('webhook_tokens', user.id)).toBe('[]');
  });
});

describe('bearer API keys on the app routes', () => {
  it('reads and creates through the same routes as the app, without a cookie, and records when the key was used', async () => {
    const { client, key } = await professionalWithKey();
    const created = await withKey(t.app, key, 'POST', '/api/domains', { domain: 'api-made.example.com' });
    expect(created.statusCode).toBe(200);
    expect(created.json().domain).toBe('api-made.example.com');
    expect(created.headers['set-cookie']).toBeUndefined();

    const listed = await withKey(t.app, key, 'GET', '/api/domains');
    expect(listed.statusCode).toBe(200);
    expect(listed.json().map((d: { domain: string }) => d.domain)).toEqual(['api-made.example.com']);
    expect(listed.headers['set-cookie']).toBeUndefined();
    // The app sees what the key made: one account, two ways in.
    expect((await client.get('/api/domains')).json()).toHaveLength(1);

    const status = await waitUntil(async () => (await client.get('/api/api-keys/status')).json(), 'lastUsedAt', {
      until: (s) => s.lastUsedAt !== null,
    });
    expect(Date.now() - Date.parse(status.lastUsedAt)).toBeLessThan(2 * 60_000);
  });

  it("costs no query beyond the route's own once the key is cached, its quota block leased and its use recorded", async () => {
    const { key } = await professionalWithKey();
    const keyRequest = async () => expect((await withKey(t.app, key, 'GET', '/api/domains')).statusCode).toBe(200);
    await keyRequest(); // the key looked up, a block of the hour leased, last_used_at written
    await waitUntil(
      async () =>
        (
          await t.database.pool.query(
            `SELECT last_used_at FROM api_keys WHERE key_hash = encode(sha256($1::bytea), 'hex')`,
            [key],
          )
        ).rows[0]?.last_used_at,
      'last_used_at written',
    );
    const spy = vi.spyOn(t.database.pool, 'query');
    try {
      for (let i = 0; i < 5; i++) await keyRequest();
      // One query a request: the domain list. No key lookup, no quota write, no second last_used_at within the minute.
      expect(spy.mock.calls.length).toBe(5);
    } finally {
      spy.mockRestore();
    }
  });

  it("another user's key sees only its own user's data", async () => {
    const owner = await professionalWithKey();
    const other = await professionalWithKey();
    const mine = (await withKey(t.app, owner.key, 'POST', '/api/domains', { domain: 'owner-only.example.com' })).json();
    expect((await withKey(t.app, other.key, 'GET', '/api/domains')).json()).toEqual([]);
    expect((await withKey(t.app, other.key, 'GET', `/api/domains/${mine.id}`)).statusCode).toBe(404);
    expect((await withKey(t.app, other.key, 'DELETE', `/api/domains/${mine.id}`)).statusCode).toBe(404);
    expect((await withKey(t.app, owner.key, 'GET', `/api/domains/${mine.id}`)).statusCode).toBe(200);
  });

  it('a wrong, malformed, revoked or replaced key is a 401 at once; the cookie of the same request is not read', async () => {
    const { client, key } = await professionalWithKey();
    const invalid = { code: 'unauthorized', message: 'Invalid API key' };
    const wrongKey = `${API_KEY_PREFIX}${'A'.repeat(43)}`;
    for (const bad of [wrongKey, 'not-a-key', '']) {
      const res = await withKey(t.app, bad, 'GET', '/api/domains');
      expect(res.statusCode, bad).toBe(401);
      expect(res.json()).toEqual(invalid);
      expect(res.headers['www-authenticate']).toBe('Bearer error="invalid_token"');
    }
    // A signed-in browser's cookie does not rescue a bad key.
    for (const url of ['/api/domains', '/api/user']) {
      const both = await t.app.inject({
        method: 'GET',
        url,
        headers: { authorization: `Bearer ${wrongKey}`, cookie: client.cookie! },
      });
      expect(both.statusCode, url).toBe(401);
    }

    expect((await withKey(t.app, key, 'GET', '/api/domains')).statusCode).toBe(200); // cached now
    const replacement = (await client.post('/api/api-keys/regenerate')).json().apiKey;
    expect((await withKey(t.app, key, 'GET', '/api/domains')).json()).toEqual(invalid);
    expect((await withKey(t.app, replacement, 'GET', '/api/domains')).statusCode).toBe(200);
    await client.delete('/api/api-keys');
    expect((await withKey(t.app, replacement, 'GET', '/api/domains')).statusCode).toBe(401);
  });

  it('needs the api_access feature: a free plan gets the upgrade 403, at once after a downgrade', async () => {
    const { client, user } = await signUp(t.app);
    const key = await newApiKey(client); // a free user may hold a key, for the day they upgrade
    const res = await withKey(t.app, key, 'GET', '/api/domains');
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ code: 'forbidden', message: 'Requires Professional plan' });

    await setPlan(t, user.id, 'professional');
    await waitUntil(
      async () => (await withKey(t.app, key, 'GET', '/api/domains')).statusCode === 200,
      'the upgrade lets the key in',
    );
    await setPlan(t, user.id, 'free');
    await waitUntil(
      async () => (await withKey(t.app, key, 'GET', '/api/domains')).statusCode === 403,
      'the downgrade shuts the key out',
    );
  });

  it('never opens key management, password, sessions or the account, even with a valid key', async () => {
    const { key } = await professionalWithKey();
    const refused = [
      ['GET', '/api/api-keys/status'],
      ['POST', '/api/api-keys/generate'],
      ['POST', '/api/api-keys/regenerate'],
      ['DELETE', '/api/api-keys'],
      ['GET', '/api/webhook-tokens/status'],
      ['GET', '/api/webhook-tokens/st%61tus'], // the route's pattern decides, not the characters of the path
      ['POST', '/api/webhook-tokens/regenerate'],
      ['DELETE', '/api/webhook-tokens'],
      ['GET', '/api/account/sessions'],
      ['POST', '/api/account/sessions/sign-out-others'],
      [
        'POST',
        '/api/account/password',
        { currentPassword: 'correct horse battery', newPassword: 'another long secret' },
      ],
    ] as const;
    for (const [method, url, body] of refused) {
      const res = await withKey(t.app, key, method, url, body);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json().message).toBe('API keys cannot be used here: sign in to manage keys, tokens and the account');
    }
    // The key still works where it may.
    expect((await withKey(t.app, key, 'GET', '/api/domains')).statusCode).toBe(200);
  });

  it('never opens billing or the Google sign-in, each saying why, even with a valid key', async () => {
    const { key } = await professionalWithKey();
    const billing = 'API keys cannot be used for billing: sign in to manage your subscription';
    const google =
      'Connecting Google Postmaster Tools needs you signed in in the browser: API keys cannot start a Google sign-in';
    const refused = [
      ['GET', '/api/subscription', billing],
      ['GET', '/api/invoices', billing],
      ['POST', '/api/cancel-subscription', billing],
      ['POST', '/api/integrations/google-postmaster/connect', google],
    ] as const;
    for (const [method, url, message] of refused) {
      const res = await withKey(t.app, key, method, url);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json().message, `${method} ${url}`).toBe(message);
    }
  });

  it('skips the Origin check that cookie sessions keep', async () => {
    const { client, key } = await professionalWithKey();
    const foreign = { origin: 'https://elsewhere.example' };
    const byKey = await withKey(t.app, key, 'POST', '/api/domains', { domain: 'from-a-script.example.com' }, foreign);
    expect(byKey.statusCode).toBe(200);
    const byCookie = await t.app.inject({
      method: 'POST',
      url: '/api/domains',
      payload: { domain: 'csrf.example.com' },
      headers: { ...foreign, cookie: client.cookie! },
    });
    expect(byCookie.statusCode).toBe(403);
    expect(byCookie.json().message).toBe('Cross-site request refused');
  });
});
