import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outbox } from './platform/db/schema/index';
import type { SmtpSink } from './test/smtp-sink';
import { createMailingTestApp, signUp } from './test/test-app';
import { maintenanceJob } from './maintenance.job';
import { waitUntil } from './test/wait-until';

let t: Awaited<ReturnType<typeof createMailingTestApp>>;
let smtp: SmtpSink;
beforeAll(async () => {
  t = await createMailingTestApp({}, { schedules: true }); // the first test is of the cron schedule itself
  smtp = t.smtp;
});
afterAll(() => t.close());

describe('scheduled maintenance (pg-boss cron on the app database)', () => {
  it('is scheduled, runs on its own, drops expired sessions and keeps live ones', async () => {
    const live = await signUp(t.app, { username: 'liveone' });
    const expired = await signUp(t.app, { username: 'expiredone' });
    await t.database.db.execute(
      sql`UPDATE sessions SET expires_at = now() - interval '1 hour' WHERE user_id = ${expired.user.id}`,
    );

    const schedules = await t.database.pool.query(`SELECT name, cron FROM pgboss.schedule`);
    expect(schedules.rows).toContainEqual({ name: 'maintenance', cron: '* * * * *' });

    await waitUntil(
      async () => {
        const { rows } = await t.database.pool.query(`SELECT count(*)::int AS n FROM sessions WHERE user_id = $1`, [
          expired.user.id,
        ]);
        return rows[0].n === 0;
      },
      'the scheduled maintenance to drop the expired session',
      { timeoutMs: 20_000 },
    );
    expect((await live.client.get('/api/user')).statusCode).toBe(200);
  });

  it('delivers mail whose process died between commit and sending the job', async () => {
    // What a crash leaves behind: a committed pending row and no job for it.
    await t.database.db.insert(outbox).values({
      kind: 'reset_password',
      toAddress: 'orphan@example.com',
      subject: 'Reset your InboxPulse password',
      textBody: 'link',
      htmlBody: '<p>link</p>',
      status: 'pending',
      createdAt: sql`now() - interval '5 minutes'`,
    });
    // The cron above runs this every minute; the test asks for a run now rather than wait for one.
    await t.jobs.send(maintenanceJob, {});
    const delivered = await waitUntil(
      () => smtp.messages.find((m) => m.to && 'text' in m.to && m.to.text === 'orphan@example.com'),
      'the orphaned mail at the SMTP server',
      { timeoutMs: 20_000 },
    );
    expect(delivered.subject).toBe('Reset your InboxPulse password');
    // The SMTP server has the mail before the sender's UPDATE commits: read the row once it has left 'pending'.
    const rows = await waitUntil(
      async () =>
        (await t.database.pool.query(`SELECT status FROM outbox WHERE to_address = 'orphan@example.com'`)).rows,
      "the orphaned mail's outbox row to leave 'pending'",
      { until: (rows) => rows[0] !== undefined && rows[0].status !== 'pending' },
    );
    expect(rows[0].status).toBe('sent');
  });

  it('forgets idempotency keys after 24 hours and keeps younger ones', async () => {
    const { user } = await signUp(t.app);
    await t.database.pool.query(
      `INSERT INTO idempotency_keys (user_id, key, request_hash, status, response_body, created_at)
       VALUES ($1, 'old', 'h', 200, '{}', now() - interval '25 hours'), ($1, 'young', 'h', 200, '{}', now() - interval '23 hours')`,
      [user.id],
    );
    await t.jobs.send(maintenanceJob, {});
    const keys = await waitUntil(
      async () =>
        (await t.database.pool.query(`SELECT key FROM idempotency_keys WHERE user_id = $1`, [user.id])).rows.map(
          (r) => r.key,
        ),
      'the maintenance run to drop the old key',
      { until: (keys) => !keys.includes('old'), timeoutMs: 20_000 },
    );
    expect(keys).toEqual(['young']);
  });

  it('forgets applied Stripe events after 90 days, so a redelivery within them is still refused', async () => {
    await t.database.pool.query(
      `INSERT INTO stripe_events (id, type, processed_at)
       VALUES ('evt_old_maint', 'invoice.paid', now() - interval '91 days'), ('evt_young_maint', 'invoice.paid', now() - interval '29 days')`,
    );
    await t.jobs.send(maintenanceJob, {});
    const ids = await waitUntil(
      async () =>
        (await t.database.pool.query(`SELECT id FROM stripe_events WHERE id LIKE '%_maint'`)).rows.map((r) => r.id),
      'the maintenance run to forget the old event',
      { until: (ids) => !ids.includes('evt_old_maint'), timeoutMs: 20_000 },
    );
    expect(ids).toEqual(['evt_young_maint']);
  });
});
