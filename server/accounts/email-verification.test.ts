import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMailingTestApp, TestClient } from '../test/test-app';
import type { SmtpSink } from '../test/smtp-sink';
import { waitUntil } from '../test/wait-until';

let t: Awaited<ReturnType<typeof createMailingTestApp>>;
let smtp: SmtpSink;
beforeAll(async () => {
  t = await createMailingTestApp();
  smtp = t.smtp;
});
afterAll(() => t.close());

const tokenOf = (text: string | undefined) => /verify-email\?token=([\w-]+)/.exec(text ?? '')![1];

/**
 * The outbox row of a mail once its sender is done with it: the SMTP server has the mail before the
 * worker's UPDATE (status, attempts) commits, so the row is read when it no longer says 'pending'.
 */
async function settledOutboxRow(toAddress: string, columns: string) {
  return waitUntil(
    async () => (await t.database.pool.query(`SELECT ${columns} FROM outbox WHERE to_address = $1`, [toAddress])).rows,
    `the outbox row to ${toAddress} to leave 'pending'`,
    { until: (rows) => rows.length > 0 && rows.every((r) => r.status !== 'pending') },
  );
}

async function register(username: string, ip: string) {
  const client = new TestClient(t.app, ip);
  const res = await client.post('/api/register', {
    username,
    email: `${username}@example.com`,
    password: 'password123',
  });
  return { client, res };
}

describe('e-mail verification over SMTP', () => {
  it('sends a real verification mail (text and HTML) and verifies the account with its link', async () => {
    const before = smtp.messages.length;
    const { client, res } = await register('verifyme', '127.6.0.1');
    expect(res.json()).toMatchObject({
      emailSent: true,
      message: 'Please check your email to verify your account.',
      user: { emailVerified: false },
    });

    const [mail] = (await smtp.waitFor(before + 1)).slice(before);
    expect(mail.to && 'text' in mail.to ? mail.to.text : '').toBe('verifyme@example.com');
    expect(mail.subject).toBe('Verify your InboxPulse e-mail address');
    expect(mail.html).toContain('http://localhost:3000/verify-email?token=');
    const token = tokenOf(mail.text);

    const verified = await new TestClient(t.app).post('/api/verify-email', { token });
    expect(verified.json()).toEqual({
      message: 'Email verified successfully',
      user: { email: 'verifyme@example.com' },
    });
    expect((await client.get('/api/user')).json().emailVerified).toBe(true);

    // The same link again: already verified, as the verify screen expects.
    const again = await new TestClient(t.app).get(`/api/verify-email?token=${token}`);
    expect(again.statusCode).toBe(200);
    expect(again.json().message).toBe('Email already verified');

    // Delivered mail keeps no link in the database.
    const rows = await settledOutboxRow('verifyme@example.com', 'status, text_body');
    expect(rows).toEqual([{ status: 'sent', text_body: null }]);
  });

  it('refuses an unknown or expired verification link', async () => {
    const before = smtp.messages.length;
    await register('latecomer', '127.6.0.2');
    const [mail] = (await smtp.waitFor(before + 1)).slice(before);
    await t.database.db.execute(
      sql`UPDATE auth_tokens SET expires_at = now() - interval '1 second' WHERE purpose = 'verify_email'`,
    );
    for (const token of [tokenOf(mail.text), 'not-a-token']) {
      const res = await new TestClient(t.app).post('/api/verify-email', { token });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe('This verification link is invalid or has expired');
    }
  });

  it('resends to an unverified address and answers the same for unknown ones', async () => {
    const before = smtp.messages.length;
    await register('resender', '127.6.0.3');
    await smtp.waitFor(before + 1);
    const known = await new TestClient(t.app, '127.6.0.4').post('/api/resend-verification-public', {
      email: 'resender@example.com',
    });
    const unknown = await new TestClient(t.app, '127.6.0.4').post('/api/resend-verification-public', {
      email: 'nobody@example.com',
    });
    expect(known.json()).toEqual({
      message: 'If an account exists with this email, a verification email has been sent.',
    });
    expect(unknown.json()).toEqual(known.json());
    const mails = await smtp.waitFor(before + 2);
    expect(mails.slice(before).map((m) => m.subject)).toEqual([
      'Verify your InboxPulse e-mail address',
      'Verify your InboxPulse e-mail address',
    ]);
    const token = tokenOf(mails[before + 1].text);
    expect((await new TestClient(t.app).post('/api/verify-email', { token })).json().message).toBe(
      'Email verified successfully',
    );
  });

  it('retries when the SMTP server refuses, and delivers once it accepts', async () => {
    smtp.failNext = 1;
    const before = smtp.messages.length;
    await register('retryme', '127.6.0.5');
    await smtp.waitFor(before + 1, 30_000);
    const rows = await settledOutboxRow('retryme@example.com', 'status, attempts');
    expect(rows[0]).toEqual({ status: 'sent', attempts: 2 });
  }, 60_000);
});
