import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUp, TestClient, type TestApp } from '../test/test-app';
import { issueResetLink } from './reset-link.service';
import { withApiAccess } from '../api-keys/api-keys.test-support';
import { AUTH_MESSAGES } from '@contracts/auth';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp(); // no SMTP: the mail's envelope stays in the outbox, its link nowhere
});
afterAll(() => t.close());

/**
 * Without SMTP the reset mail is not sent and its link is kept nowhere (not in the outbox, not in the
 * log): the operator makes a fresh one with `npm run reset-link`, which this calls as that command does.
 */
async function resetTokenAsOperator(email: string): Promise<string> {
  const { rows } = await t.database.pool.query(
    `SELECT text_body, html_body, status FROM outbox WHERE to_address = $1 AND kind = 'reset_password' ORDER BY id DESC LIMIT 1`,
    [email],
  );
  expect(rows[0]).toEqual({ status: 'not_configured', text_body: null, html_body: null });
  const { link } = await issueResetLink(t.database.db, t.env.APP_URL, email);
  expect(link.startsWith(`${t.env.APP_URL}/reset-password?token=`)).toBe(true);
  return new URL(link).searchParams.get('token')!;
}

describe('password reset', () => {
  it('answers the same for known and unknown addresses, and only mails the known one', async () => {
    await signUp(t.app, { username: 'forgetful', email: 'forgetful@example.com' });
    const known = await new TestClient(t.app, '127.5.0.1').post('/api/forgot-password', {
      email: 'Forgetful@Example.com',
    });
    const unknown = await new TestClient(t.app, '127.5.0.1').post('/api/forgot-password', {
      email: 'ghost@example.com',
    });
    expect(known.statusCode).toBe(200);
    expect(unknown.statusCode).toBe(200);
    expect(known.json()).toEqual(unknown.json());
    const { rows } = await t.database.pool.query(`SELECT to_address FROM outbox WHERE kind = 'reset_password'`);
    expect(rows.map((r) => r.to_address)).toEqual(['forgetful@example.com']);
  });

  it('resets with the link once, signs out every session, and the new password works', async () => {
    const { client: oldSession, password } = await signUp(t.app, { username: 'resetme', email: 'resetme@example.com' });
    await new TestClient(t.app, '127.5.0.2').post('/api/forgot-password', { email: 'resetme@example.com' });
    const token = await resetTokenAsOperator('resetme@example.com');

    const check = await new TestClient(t.app).post('/api/validate-reset-token', { token });
    expect(check.statusCode).toBe(200);
    expect(check.json()).toEqual({ valid: true });

    const reset = await new TestClient(t.app).post('/api/reset-password', { token, password: 'brand new secret' });
    expect(reset.statusCode).toBe(200);

    expect((await oldSession.get('/api/user')).statusCode).toBe(401);
    const again = await new TestClient(t.app).post('/api/reset-password', { token, password: 'another secret 2' });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({
      code: 'invalid_token',
      message: 'This password reset link is invalid or has expired',
    });

    const client = new TestClient(t.app, '127.5.0.3');
    expect((await client.post('/api/login', { username: 'resetme', password })).statusCode).toBe(401);
    expect((await client.post('/api/login', { username: 'resetme', password: 'brand new secret' })).statusCode).toBe(
      200,
    );
  });

  it('revokes the API key and webhook token with a reset and says so, unless the user keeps them', async () => {
    for (const [name, keepApiAccess] of [
      ['revoked-by-reset', undefined],
      ['kept-by-reset', true],
    ] as const) {
      const { client, user } = await signUp(t.app, { username: name, email: `${name}@example.com` });
      const access = await withApiAccess(t, client, user.id);
      expect(await access.stillWork()).toEqual({ apiKey: true, webhookToken: true });
      await new TestClient(t.app, '127.5.0.4').post('/api/forgot-password', { email: `${name}@example.com` });
      const token = await resetTokenAsOperator(`${name}@example.com`);

      const reset = await new TestClient(t.app).post('/api/reset-password', {
        token,
        password: 'brand new secret',
        ...(keepApiAccess === undefined ? {} : { keepApiAccess }),
      });
      expect(reset.statusCode).toBe(200);
      expect(reset.json()).toEqual({ message: AUTH_MESSAGES.passwordReset, apiAccessRevoked: !keepApiAccess });
      const works = !!keepApiAccess;
      expect(await access.stillWork(), name).toEqual({ apiKey: works, webhookToken: works });
    }
  });

  it('refuses an expired token and garbage tokens, changing nothing', async () => {
    const { password } = await signUp(t.app, { username: 'expiring', email: 'expiring@example.com' });
    await new TestClient(t.app, '127.5.0.4').post('/api/forgot-password', { email: 'expiring@example.com' });
    const token = await resetTokenAsOperator('expiring@example.com');
    await t.database.db.execute(
      sql`UPDATE auth_tokens SET expires_at = now() - interval '1 minute' WHERE purpose = 'reset_password'`,
    );

    for (const body of [{ token }, { token: 'garbage' }, { token: 'x'.repeat(500) }]) {
      const res = await new TestClient(t.app).post('/api/reset-password', { ...body, password: 'new password 1' });
      expect(res.statusCode).toBe(400);
    }
    expect((await new TestClient(t.app).post('/api/validate-reset-token', { token })).statusCode).toBe(400);
    expect((await new TestClient(t.app).post('/api/validate-reset-token', {})).json().message).toBe(
      'Token is required',
    );
    expect(
      (await new TestClient(t.app, '127.5.0.5').post('/api/login', { username: 'expiring', password })).statusCode,
    ).toBe(200);
  });

  it("makes an operator's link by e-mail address or username, and says when there is no such account", async () => {
    await signUp(t.app, { username: 'locked-out', email: 'locked-out@example.com' });
    expect(await issueResetLink(t.database.db, t.env.APP_URL, 'Locked-Out@Example.com')).toMatchObject({
      username: 'locked-out',
    });
    expect(await issueResetLink(t.database.db, t.env.APP_URL, 'locked-out')).toMatchObject({
      email: 'locked-out@example.com',
    });
    await expect(issueResetLink(t.database.db, t.env.APP_URL, 'nobody@example.com')).rejects.toThrow(
      'No account has the e-mail address nobody@example.com.',
    );
  });

  it('enforces the password rule on reset', async () => {
    const res = await new TestClient(t.app).post('/api/reset-password', { token: 'abc', password: 'short' });
    expect(res.json()).toEqual({ code: 'validation_error', message: 'Password must be at least 8 characters' });
  });

  it('limits reset requests per address', async () => {
    const statuses = [];
    for (let i = 0; i < 4; i++) {
      statuses.push(
        (await new TestClient(t.app, `127.5.1.${i}`).post('/api/forgot-password', { email: 'spammed@example.com' }))
          .statusCode,
      );
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
  });
});
