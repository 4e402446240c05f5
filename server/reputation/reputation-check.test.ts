import { sql } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../platform/context';
import { domains, ipAddresses } from '../platform/db/schema/index';
import { createTestApp, signUp, type TestApp } from '../test/test-app';
import { findRun } from './blocklist-results.repo';
import { requestReputationCheck } from './reputation-check';
import { reputationCheckJob } from './reputation-check.job';
import { scheduleReputationChecksRunner } from './schedule-reputation-checks.runner';

let t: TestApp;
beforeAll(async () => {
  // No worker: the queued jobs stay where the test can count them.
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const queuedJobs = async (userId: number) => {
  const { rows } = await t.database.pool.query<{ n: string }>(
    `select count(*) as n from pgboss.job where name = $1 and (data->>'userId')::int = $2`,
    [reputationCheckJob.name, userId],
  );
  return Number(rows[0].n);
};

describe('requestReputationCheck', () => {
  it('queues one check for two requests at once, and says which one queued it', async () => {
    const { user } = await signUp(t.app);
    const results = await Promise.all([
      requestReputationCheck(t.database.db, t.jobs, user.id),
      requestReputationCheck(t.database.db, t.jobs, user.id),
    ]);
    expect(results.sort()).toEqual([false, true]);
    expect(await queuedJobs(user.id)).toBe(1);
    expect((await findRun(t.database.db, user.id))?.isRunning).toBe(true);
  });

  it('queues again once the run has finished, and after a request left for dead (15 minutes)', async () => {
    const { user } = await signUp(t.app);
    expect(await requestReputationCheck(t.database.db, t.jobs, user.id)).toBe(true);
    await t.database.db.execute(
      sql`update reputation_runs set requested_at = now() - interval '3 seconds', started_at = now() - interval '2 seconds', finished_at = now() - interval '1 second' where user_id = ${user.id}`,
    );
    expect((await findRun(t.database.db, user.id))?.isRunning).toBe(false);
    // The first job is still in pg-boss's table (no worker here): the queue drops the second send, the run is asked
    // for.
    expect(await requestReputationCheck(t.database.db, t.jobs, user.id)).toBe(true);
    expect(await requestReputationCheck(t.database.db, t.jobs, user.id)).toBe(false);

    await t.database.db.execute(
      sql`update reputation_runs set requested_at = now() - interval '16 minutes' where user_id = ${user.id}`,
    );
    expect((await findRun(t.database.db, user.id))?.isRunning).toBe(false);
    expect(await requestReputationCheck(t.database.db, t.jobs, user.id)).toBe(true);
  });
});

describe('the 2-hourly schedule', () => {
  it('queues one check per user with an IP or a domain, none for a user without, and none twice', async () => {
    expect(scheduleReputationChecksRunner.schedule).toBe('0 */2 * * *');
    const withIp = (await signUp(t.app)).user;
    const withDomain = (await signUp(t.app)).user;
    const without = (await signUp(t.app)).user;
    await t.database.db.insert(ipAddresses).values({ userId: withIp.id, ipAddress: '203.0.113.90', type: 'dedicated' });
    await t.database.db
      .insert(domains)
      .values({ userId: withDomain.id, domain: 'scheduled.test', verificationToken: 'token-scheduled' });
    // the schedule reads only these
    const ctx = { db: t.database.db, jobs: t.jobs, log: pino({ level: 'silent' }) } as unknown as AppContext;
    await scheduleReputationChecksRunner.run({}, ctx);
    await scheduleReputationChecksRunner.run({}, ctx); // the next tick while they still wait
    expect([await queuedJobs(withIp.id), await queuedJobs(withDomain.id), await queuedJobs(without.id)]).toEqual([
      1, 1, 0,
    ]);
  });
});
