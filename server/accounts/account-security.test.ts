import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeDevice } from './sessions.service';
import { withApiAccess } from '../api-keys/api-keys.test-support';
import { createTestApp, signUp, TestClient, type TestApp } from '../test/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';

/** A second device of the same user: logs in from its own address. */
async function logIn(username: string, password: string, ip: string, userAgent?: string): Promise<TestClient> {
  const client = new TestClient(t.app, ip);
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/login',
    remoteAddress: ip,
    headers: userAgent ? { 'user-agent': userAgent } : {},
    payload: { username, password },
  });
  expect(res.statusCode).toBe(200);
  client.cookie = `inboxpulse_session=${res.cookies.find((c) => c.name === 'inboxpulse_session')!.value}`;
  return client;
}

interface Listed {
  id: string;
  createdAt: string;
  expiresAt: string;
  ip: string | null;
  userAgent: string | null;
  device: string;
  current: boolean;
}

async function sessionsOf(client: TestClient): Promise<Listed[]> {
  const res = await client.get('/api/account/sessions');
  expect(res.statusCode).toBe(200);
  return res.json().sessions;
}

async function sessionCount(userId: number): Promise<number> {
  const { rows } = await t.database.pool.query('SELECT count(*)::int AS n FROM sessions WHERE user_id = $1', [userId]);
  return rows[0].n;
}

describe('account sessions', () => {
  it('lists the live sessions of the user, the requester’s marked current, with no token in sight', async () => {
    const { client: laptop, user, password } = await signUp(t.app);
    const phone = await logIn(user.username, password, '127.6.0.1', FIREFOX);

    const fromLaptop = await sessionsOf(laptop);
    expect(fromLaptop).toHaveLength(2);
    expect(fromLaptop.filter((s) => s.current)).toHaveLength(1);
    const phoneEntry = fromLaptop.find((s) => !s.current)!;
    expect(phoneEntry).toMatchObject({ ip: '127.6.0.1', userAgent: FIREFOX, device: 'Firefox on Linux' });
    expect(phoneEntry.id).toMatch(/^[0-9a-f]{16}$/);
    expect(new Date(phoneEntry.expiresAt).getTime()).toBeGreaterThan(Date.now());

    const fromPhone = await sessionsOf(phone);
    expect(fromPhone.find((s) => s.current)!.id).toBe(phoneEntry.id);
    const body = JSON.stringify(fromLaptop);
    for (const c of [laptop.cookie!, phone.cookie!]) expect(body).not.toContain(c.split('=')[1]);

    // Expired sessions are not live.
    await t.database.pool.query(
      `UPDATE sessions SET expires_at = now() - interval '1 minute' WHERE left(id_hash, 16) = $1`,
      [phoneEntry.id],
    );
    expect(await sessionsOf(laptop)).toHaveLength(1);
  });

  it('needs a session', async () => {
    expect((await new TestClient(t.app).get('/api/account/sessions')).statusCode).toBe(401);
    expect((await new TestClient(t.app).post('/api/account/sessions/sign-out-others')).statusCode).toBe(401);
    expect((await new TestClient(t.app).delete('/api/account/sessions/0123456789abcdef')).statusCode).toBe(401);
  });

  it('revokes one session: that device is signed out at once, the other keeps working', async () => {
    const { client: laptop, user, password } = await signUp(t.app);
    const phone = await logIn(user.username, password, '127.6.0.2');
    const phoneId = (await sessionsOf(laptop)).find((s) => !s.current)!.id;

    const res = await laptop.delete(`/api/account/sessions/${phoneId}`);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect((await phone.get('/api/user')).statusCode).toBe(401);
    expect((await laptop.get('/api/user')).statusCode).toBe(200);
    expect(await sessionsOf(laptop)).toHaveLength(1);

    expect((await laptop.delete(`/api/account/sessions/${phoneId}`)).statusCode).toBe(404);
  });

  it('revoking the current session signs this device out', async () => {
    const { client, user } = await signUp(t.app);
    const [own] = await sessionsOf(client);
    const res = await client.delete(`/api/account/sessions/${own.id}`);
    expect(res.statusCode).toBe(204);
    expect(res.cookies.find((c) => c.name === 'inboxpulse_session')?.value).toBe('');
    expect(await sessionCount(user.id)).toBe(0);
    expect((await client.get('/api/user')).statusCode).toBe(401);
  });

  it("answers 404 for another user's session or an unknown id, and ends nothing", async () => {
    const alice = await signUp(t.app);
    const bob = await signUp(t.app);
    const [bobs] = await sessionsOf(bob.client);

    expect((await alice.client.delete(`/api/account/sessions/${bobs.id}`)).json()).toEqual({
      code: 'not_found',
      message: 'Session not found',
    });
    expect((await alice.client.delete('/api/account/sessions/0000000000000000')).statusCode).toBe(404);
    expect((await alice.client.delete('/api/account/sessions/not-an-id')).statusCode).toBe(400);
    expect((await bob.client.get('/api/user')).statusCode).toBe(200);
    expect(await sessionCount(bob.user.id)).toBe(1);
    expect(await sessionCount(alice.user.id)).toBe(1);
  });

  it('signs out everywhere else, keeping only the current session', async () => {
    const { client: laptop, user, password } = await signUp(t.app);
    const phone = await logIn(user.username, password, '127.6.0.3');
    const tablet = await logIn(user.username, password, '127.6.0.4');
    const other = await signUp(t.app);

    const res = await laptop.post('/api/account/sessions/sign-out-others');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ revoked: 2 });
    expect((await phone.get('/api/user')).statusCode).toBe(401);
    expect((await tablet.get('/api/user')).statusCode).toBe(401);
    expect((await laptop.get('/api/user')).statusCode).toBe(200);
    const left = await sessionsOf(laptop);
    expect(left).toHaveLength(1);
    expect(left[0].current).toBe(true);
    expect((await other.client.get('/api/user')).statusCode).toBe(200);
  });
});

describe('change password', () => {
  it('refuses a wrong current password with a 400 and changes nothing', async () => {
    const { client: laptop, user, password } = await signUp(t.app);
    const phone = await logIn(user.username, password, '127.6.1.1');

    const res = await laptop.post('/api/account/password', {
      currentPassword: 'not my password',
      newPassword: 'a new secret 1',
      confirmPassword: 'a new secret 1',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ code: 'validation_error', message: 'Your current password is incorrect' });
    expect((await phone.get('/api/user')).statusCode).toBe(200);
    expect((await laptop.get('/api/user')).statusCode).toBe(200);
    await logIn(user.username, password, '127.6.1.2');
    expect(
      (
        await new TestClient(t.app, '127.6.1.3').post('/api/login', {
          username: user.username,
          password: 'a new secret 1',
        })
      ).statusCode,
    ).toBe(401);
  });

  it('applies the registration rules to the new password', async () => {
    const { client, password } = await signUp(t.app);
    const short = await client.post('/api/account/password', {
      currentPassword: password,
      newPassword: 'short',
      confirmPassword: 'short',
    });
    expect(short.json()).toEqual({ code: 'validation_error', message: 'Password must be at least 8 characters' });
    const mismatch = await client.post('/api/account/password', {
      currentPassword: password,
      newPassword: 'long enough 1',
      confirmPassword: 'long enough 2',
    });
    expect(mismatch.json()).toEqual({ code: 'validation_error', message: "Passwords don't match" });
  });

  it('changes it: the new password logs in, the old does not, other sessions end, this one stays', async () => {
    const { client: laptop, user, password } = await signUp(t.app);
    const phone = await logIn(user.username, password, '127.6.2.1');

    const res = await laptop.post('/api/account/password', {
      currentPassword: password,
      newPassword: 'a brand new secret',
      confirmPassword: 'a brand new secret',
    });
    expect(res.statusCode).toBe(200);
    expect(res.cookies.find((c) => c.name === 'inboxpulse_session')).toBeUndefined();

    expect((await laptop.get('/api/user')).statusCode).toBe(200);
    expect((await phone.get('/api/user')).statusCode).toBe(401);
    expect(await sessionCount(user.id)).toBe(1);
    expect(
      (await new TestClient(t.app, '127.6.2.2').post('/api/login', { username: user.username, password })).statusCode,
    ).toBe(401);
    await logIn(user.username, 'a brand new secret', '127.6.2.3');
  });

  it('revokes the API key and webhook token in the same step when asked, and keeps them otherwise', async () => {
    for (const revokeApiAccess of [false, true]) {
      const { client, user, password } = await signUp(t.app);
      const access = await withApiAccess(t, client, user.id);
      const res = await client.post('/api/account/password', {
        currentPassword: password,
        newPassword: 'a brand new secret',
        confirmPassword: 'a brand new secret',
        revokeApiAccess,
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().apiAccessRevoked).toBe(revokeApiAccess);
      expect(await access.stillWork()).toEqual({ apiKey: !revokeApiAccess, webhookToken: !revokeApiAccess });
    }
  });

  it('counts wrong current passwords against the login limit', async () => {
    const { client, password } = await signUp(t.app);
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      statuses.push(
        (
          await client.post('/api/account/password', {
            currentPassword: `wrong ${i}`,
            newPassword: 'another secret',
            confirmPassword: 'another secret',
          })
        ).statusCode,
      );
    }
    expect(statuses).toEqual([...Array<number>(10).fill(400), 429]);
    const right = await client.post('/api/account/password', {
      currentPassword: password,
      newPassword: 'another secret',
      confirmPassword: 'another secret',
    });
    expect(right.statusCode).toBe(429);
  });
});

describe('describeDevice', () => {
  it('names the browser and system', () => {
    expect(describeDevice(FIREFOX)).toBe('Firefox on Linux');
    expect(
      describeDevice(
        'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36 Edg/126.0',
      ),
    ).toBe('Edge on Windows');
    expect(
      describeDevice(
        'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
      ),
    ).toBe('Safari on iOS');
    expect(describeDevice(null)).toBe('Unknown device');
    expect(describeDevice('something odd')).toBe('Unknown device');
  });
});
