import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caughtUp } from '../test/caught-up';
import { createTestApp, signUp, TestClient, type TestApp } from '../test/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const newClient = (ip: string) => new TestClient(t.app, ip);

describe('registration', () => {
  it('creates a verified account without SMTP, signs the user in and keeps the coupon', async () => {
    const client = newClient('127.1.0.1');
    const res = await client.post('/api/register', {
      username: 'Marketer_Ann',
      email: '  Ann@Example.COM ',
      password: 'long enough pw',
      confirmPassword: 'long enough pw',
      couponCode: 'LAUNCH50',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      emailSent: false,
      message: 'Your account has been verified and is ready to use.',
      user: {
        username: 'Marketer_Ann',
        email: 'ann@example.com',
        emailVerified: true,
        subscriptionPlan: 'free',
        hasCompletedTour: false,
      },
    });
    expect(res.json().user).not.toHaveProperty('passwordHash');
    const cookie = res.cookies.find((c) => c.name === 'inboxpulse_session')!;
    expect(cookie.httpOnly).toBe(true);
    expect(cookie.sameSite).toBe('Lax');

    const me = await client.get('/api/user');
    expect(me.statusCode).toBe(200);
    expect(me.json().username).toBe('Marketer_Ann');

    const stored = await t.database.pool.query(
      `SELECT coupon_code, password_hash FROM users WHERE email = 'ann@example.com'`,
    );
    expect(stored.rows[0].coupon_code).toBe('LAUNCH50');
    expect(String(stored.rows[0].password_hash)).toMatch(/^\$argon2id\$/);
  });

  it.each([
    [{ email: 'a@b.co', password: 'password1' }, 'Username is required'],
    [{ username: 'ab', email: 'a@b.co', password: 'password1' }, 'Username must be at least 3 characters'],
    [{ username: 'abc', email: 'not-an-email', password: 'password1' }, 'Please enter a valid email address'],
    [{ username: 'abc', email: 'a@b.co', password: 'short' }, 'Password must be at least 8 characters'],
    [
      { username: 'abc', email: 'a@b.co', password: 'password1', confirmPassword: 'password2' },
      "Passwords don't match",
    ],
    [
      { username: 'a b c', email: 'a@b.co', password: 'password1' },
      'Username may only contain letters, numbers, dots, dashes and underscores',
    ],
    [{ username: 'abc', email: 'a@b.co', password: 12345678 }, 'Password must be at least 8 characters'],
  ])('rejects %j with "%s" and stores nothing', async (body, message) => {
    const res = await newClient('127.1.0.2').post('/api/register', body);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ code: 'validation_error', message });
    const count = await t.database.pool.query(`SELECT count(*)::int AS n FROM users WHERE email = 'a@b.co'`);
    expect(count.rows[0].n).toBe(0);
  });

  it('refuses a username taken in any letter case, and a taken e-mail', async () => {
    await signUp(t.app, { username: 'DupName', email: 'dup1@example.com' });
    const sameName = await newClient('127.1.0.3').post('/api/register', {
      username: 'dupname',
      email: 'other@example.com',
      password: 'password123',
    });
    expect(sameName.statusCode).toBe(409);
    expect(sameName.json().message).toBe('Username already exists');
    const sameEmail = await newClient('127.1.0.3').post('/api/register', {
      username: 'fresh',
      email: 'DUP1@example.com',
      password: 'password123',
    });
    expect(sameEmail.statusCode).toBe(409);
    expect(sameEmail.json().message).toBe('An account with this email already exists');
  });

  it('limits registrations per address with a clear 429', async () => {
    const client = newClient('127.1.0.4');
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      const res = await client.post('/api/register', {
        username: `burst${i}`,
        email: `burst${i}@example.com`,
        password: 'password123',
      });
      statuses.push(res.statusCode);
      if (res.statusCode === 429) {
        expect(res.json().message).toMatch(/^Too many attempts\. Please try again in \d+ minutes?\.$/);
        expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      }
    }
    expect(statuses.slice(0, 10).every((s) => s === 200)).toBe(true);
    expect(statuses[10]).toBe(429);
  });
});

describe('login and sessions', () => {
  it('signs in by username in any case or by e-mail, with a new session id each time', async () => {
    const { user, password } = await signUp(t.app, { username: 'LoginUser', email: 'login@example.com' });
    const client = newClient('127.2.0.1');
    const first = await client.post('/api/login', { username: 'loginuser', password });
    expect(first.statusCode).toBe(200);
    expect(first.json().user.id).toBe(user.id);
    const firstCookie = client.cookie;

    const second = await client.post('/api/login', { username: 'login@example.com', password });
    expect(second.statusCode).toBe(200);
    expect(client.cookie).not.toBe(firstCookie);

    // Rotation: the cookie from before the second login no longer works.
    const stale = new TestClient(t.app, '127.2.0.1');
    stale.cookie = firstCookie;
    expect((await stale.get('/api/user')).statusCode).toBe(401);
    expect((await client.get('/api/user')).statusCode).toBe(200);
  });

  it('says the same thing for an unknown user and a wrong password', async () => {
    await signUp(t.app, { username: 'RealUser', email: 'real@example.com' });
    const unknown = await newClient('127.2.0.2').post('/api/login', { username: 'nobody-here', password: 'whatever1' });
    const wrong = await newClient('127.2.0.2').post('/api/login', { username: 'RealUser', password: 'wrong password' });
    for (const res of [unknown, wrong]) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ code: 'unauthorized', message: 'Invalid username or password' });
    }
  });

  it('requires both fields with the spec messages', async () => {
    const noUser = await newClient('127.2.0.3').post('/api/login', { password: 'x' });
    expect(noUser.json().message).toBe('Username is required');
    const noPassword = await newClient('127.2.0.3').post('/api/login', { username: 'someone', password: '' });
    expect(noPassword.json().message).toBe('Password is required');
  });

  it('stops an address guessing one account after 10 wrong passwords (username and e-mail together), without locking the owner out elsewhere', async () => {
    const { password } = await signUp(t.app, { username: 'Target', email: 'target@example.com' });
    const guesser = newClient('127.3.0.1');
    for (let i = 0; i < 10; i++) {
      const res = await guesser.post('/api/login', {
        username: i % 2 ? 'target' : 'Target@Example.com',
        password: `guess${i}xx`,
      });
      expect(res.statusCode).toBe(401);
    }
    const blocked = await guesser.post('/api/login', { username: 'Target', password });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().message).toMatch(/^Too many attempts\. Please try again in \d+ minutes?\.$/);
    // The owner, from another address, signs in as usual.
    expect((await newClient('127.3.0.2').post('/api/login', { username: 'Target', password })).statusCode).toBe(200);
  });

  it('after 100 wrong passwords from anywhere, lets only a browser the owner signed in on before through', async () => {
    const { client: ownersBrowser, password } = await signUp(t.app, {
      username: 'Spread',
      email: 'spread@example.com',
    });
    const deviceCookie = ownersBrowser.deviceCookie;
    expect(deviceCookie).toMatch(/^inboxpulse_device=/);
    // The owner signed out since: a session is not what makes the browser known.
    expect((await ownersBrowser.post('/api/logout')).statusCode).toBe(200);
    for (let i = 0; i < 100; i++) {
      const res = await newClient(`127.4.${Math.floor(i / 9)}.${(i % 9) + 1}`).post('/api/login', {
        username: 'spread',
        password: `guess${i}xx`,
      });
      expect(res.statusCode).toBe(401);
    }
    expect((await newClient('127.4.200.1').post('/api/login', { username: 'spread', password })).statusCode).toBe(429);
    // The owner's browser, now on another network, is known by its signed cookie: the right password works there.
    const travelling = newClient('127.4.201.1');
    travelling.deviceCookie = deviceCookie;
    expect((await travelling.post('/api/login', { username: 'spread', password })).statusCode).toBe(200);
    // A known browser still needs the right password.
    expect((await travelling.post('/api/login', { username: 'spread', password: 'not it at all' })).statusCode).toBe(
      401,
    );
    // A cookie altered to name this user, or another user's cookie, makes no browser known.
    const forger = newClient('127.4.202.1');
    forger.deviceCookie = deviceCookie!.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'));
    expect((await forger.post('/api/login', { username: 'spread', password })).statusCode).toBe(429);
    const { client: someoneElse } = await signUp(t.app);
    forger.deviceCookie = someoneElse.deviceCookie;
    expect((await forger.post('/api/login', { username: 'spread', password })).statusCode).toBe(429);
  });

  it('logout revokes the session on the server, not only the cookie', async () => {
    const { client } = await signUp(t.app);
    const cookie = client.cookie;
    expect((await client.post('/api/logout')).statusCode).toBe(200);
    expect(client.cookie).toBeUndefined();
    const replay = new TestClient(t.app);
    replay.cookie = cookie;
    expect((await replay.get('/api/user')).statusCode).toBe(401);
  });

  it('an expired session is not accepted', async () => {
    const { client, user } = await signUp(t.app);
    await t.database.db.execute(
      sql`UPDATE sessions SET expires_at = now() - interval '1 second' WHERE user_id = ${user.id}`,
    );
    // The session cache sees a change made behind the app's back once the database's notification arrives.
    await caughtUp(t);
    expect((await client.get('/api/user')).statusCode).toBe(401);
  });

  it('completing the tour is remembered on the account', async () => {
    const { client } = await signUp(t.app);
    const res = await client.post('/api/user/complete-tour');
    expect(res.json().hasCompletedTour).toBe(true);
    expect((await client.get('/api/user')).json().hasCompletedTour).toBe(true);
    expect((await newClient('127.4.0.1').post('/api/user/complete-tour')).statusCode).toBe(401);
  });
});
