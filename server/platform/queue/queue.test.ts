import { sql } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Database } from '../db/client';
import { openNotifications, type Notifications } from '../db/notifications';
import { openTestDatabase } from '../../test/test-database';
import type { AppContext } from '../context';
import { jobType } from '../job-sender';
import { defineRunner, type AnyJob } from './job';
import { createJobQueue } from './queue';

const log = pino({ level: 'silent' });
/** A job that only notes the n of each run, for tests of when jobs run. */
function notingJob(name: string) {
  const seen: number[] = [];
  const job = defineRunner(jobType(name, z.object({ n: z.number() })), {
    async run({ n }) {
      seen.push(n);
    },
  });
  return { job, seen };
}
const { job: countJob, seen: ran } = notingJob('test-count');
const context = {} as Omit<AppContext, 'jobs' | 'log'>;

let database: Database;
let notifications: Notifications;
beforeAll(async () => {
  database = await openTestDatabase();
  notifications = await openNotifications(database.connection, log);
});
afterAll(async () => {
  await notifications?.close();
  await database?.close();
});

/** Polls until `done` holds, failing after `ms`: far less than the 60 s a worker here waits between polls. */
async function waitUntil(done: () => boolean | Promise<boolean>, what: string, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** A worker process and a sender-only process on one database, as with ROLES=worker and ROLES=smtp. */
async function twoProcesses(jobs: AnyJob[]) {
  // The sender goes first: it creates the queues, and jobs it sends now are a backlog for the worker.
  const sender = createJobQueue({ database, notifications, jobs, log, work: false });
  await sender.start(context);
  const worker = createJobQueue({ database, notifications, jobs, log, work: true, pollSeconds: 60 });
  return {
    sender,
    startWorker: () => worker.start(context),
    stop: async () => {
      await worker.stop();
      await sender.stop();
    },
  };
}

const jobStates = async (name: string) => {
  const { rows } = await database.pool.query<{ n: string; state: string; message: string | null }>(
    `select data->>'n' as n, state, output->>'message' as message from pgboss.job where name = $1 order by (data->>'n')::int`,
    [name],
  );
  return rows;
};

describe('the job worker', () => {
  it("drops the schedule of a job this version no longer has, and keeps its own jobs' schedules", async () => {
    const retired = defineRunner(jobType('test-retired-round', z.object({})), {
      schedule: '* * * * *',
      run: async () => {},
    });
    const kept = defineRunner(jobType('test-kept-round', z.object({})), {
      schedule: '0 * * * *',
      run: async () => {},
    });
    const before = createJobQueue({ database, notifications, jobs: [retired, kept], log, work: true, pollSeconds: 60 });
    await before.start(context);
    await before.stop();
    const scheduled = async () =>
      (
        await database.pool.query<{ name: string }>(
          `select name from pgboss.schedule where name like 'test-%' order by name`,
        )
      ).rows.map((r) => r.name);
    expect(await scheduled()).toEqual(['test-kept-round', 'test-retired-round']);
    const after = createJobQueue({ database, notifications, jobs: [kept], log, work: true, pollSeconds: 60 });
    await after.start(context);
    await after.stop();
    expect(await scheduled()).toEqual(['test-kept-round']);
  });

  it("writes nothing to the queues and schedules on a restart, and applies a new version's changed retry policy and schedule", async () => {
    const job = (retryLimit: number, schedule: string) =>
      defineRunner(jobType('test-restarted', z.object({})), { retryLimit, schedule, run: async () => {} });
    const stored = async () =>
      (
        await database.pool.query<{ retry: number; queueUpdated: Date; cron: string; scheduleUpdated: Date }>(
          `select q.retry_limit as retry, q.updated_on as "queueUpdated", s.cron, s.updated_on as "scheduleUpdated"
             from pgboss.queue q join pgboss.schedule s using (name) where q.name = 'test-restarted'`,
        )
      ).rows[0];
    const start = async (version: AnyJob) => {
      const queue = createJobQueue({ database, notifications, jobs: [version], log, work: true, pollSeconds: 60 });
      await queue.start(context);
      await queue.stop();
    };
    await start(job(2, '0 * * * *'));
    const first = await stored();
    expect(first).toMatchObject({ retry: 2, cron: '0 * * * *' });

    await start(job(2, '0 * * * *'));
    expect(await stored()).toEqual(first);

    await start(job(5, '30 * * * *'));
    const changed = await stored();
    expect(changed).toMatchObject({ retry: 5, cron: '30 * * * *' });
    expect(changed!.queueUpdated.getTime()).toBeGreaterThan(first!.queueUpdated.getTime());
  });

  it('works through a backlog without waiting a polling interval between jobs', async () => {
    const { sender, startWorker, stop } = await twoProcesses([countJob]);
    for (let n = 1; n <= 5; n++) await sender.send(countJob, { n });
    // A worker that polls every 60 s: its first fetch is at start, so five jobs one poll apart would take 4 minutes.
    await startWorker();
    try {
      await waitUntil(() => ran.length >= 5, 'five jobs');
      expect(ran.sort()).toEqual([1, 2, 3, 4, 5]);
    } finally {
      await stop();
    }
  }, 30_000);

  it('runs a job sent by another process at once, although the worker polls only every 60 s', async () => {
    const { job, seen } = notingJob('test-wake');
    const { sender, startWorker, stop } = await twoProcesses([job]);
    await startWorker();
    try {
      // Each job is sent once the one before has run, so the worker has gone back to waiting for its
      // next poll: only the sender's notification can bring it back within the deadline.
      for (let n = 1; n <= 3; n++) {
        await sender.send(job, { n });
        await waitUntil(() => seen.includes(n), `job ${n}`);
      }
      expect(seen).toEqual([1, 2, 3]);
    } finally {
      await stop();
    }
  }, 30_000);

  it('wakes the workers when the listening connection comes back, as a notification may have been lost meanwhile', async () => {
    const { job, seen } = notingJob('test-reconnect');
    const { sender, startWorker, stop } = await twoProcesses([job]);
    await startWorker();
    try {
      await database.pool.query(
        `select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'inboxpulse-listen' and datname = current_database()`,
      );
      // Sent while no connection listens (the first reconnect attempt is 100 ms away): its notification is lost.
      await sender.send(job, { n: 1 });
      await waitUntil(() => seen.includes(1), 'the job sent while the connection was down');
      expect(notifications.listening).toBe(true);
    } finally {
      await stop();
    }
  }, 30_000);

  it('fetches jobs in batches, runs a batch side by side, and only the job that failed is retried', async () => {
    const batchSize = 4;
    let started = 0;
    let allStarted: () => void;
    const latch = new Promise<void>((resolve) => (allStarted = resolve));
    const job = defineRunner(jobType('test-batch', z.object({ n: z.number(), fail: z.boolean() })), {
      batchSize,
      retryLimit: 1,
      retryDelaySeconds: 60,
      async run({ fail }) {
        if (++started === batchSize) allStarted();
        // Run one after another, no job would ever see the others start: give up rather than hang.
        const timeout = new Promise<never>((_, reject) =>
          setTimeout(() => reject(new Error('the batch did not run side by side')), 5_000),
        );
        await Promise.race([latch, timeout]);
        if (fail) throw new Error('this one fails');
      },
    });
    const { sender, startWorker, stop } = await twoProcesses([job]);
    for (let n = 1; n <= batchSize; n++) await sender.send(job, { n, fail: n === 2 });
    await startWorker();
    try {
      const settled = async () =>
        (await jobStates(job.name)).every((j) => j.state === 'completed' || j.state === 'retry');
      await waitUntil(settled, 'the batch to settle');
      expect(await jobStates(job.name)).toEqual([
        { n: '1', state: 'completed', message: null },
        { n: '2', state: 'retry', message: 'this one fails' },
        { n: '3', state: 'completed', message: null },
        { n: '4', state: 'completed', message: null },
      ]);
    } finally {
      await stop();
    }
  }, 30_000);

  it('records a failed query in the job without the values it was given', async () => {
    const job = defineRunner(jobType('test-query-failure', z.object({ n: z.number() })), {
      retryLimit: 0,
      async run() {
        await database.db.execute(sql`select ${'secret-value-for-the-hash'}::int`);
      },
    });
    const { sender, startWorker, stop } = await twoProcesses([job]);
    await sender.send(job, { n: 1 });
    await startWorker();
    try {
      await waitUntil(async () => (await jobStates(job.name)).every((j) => j.state === 'failed'), 'the job to fail');
      const [{ message }] = await jobStates(job.name);
      expect(message).toMatch(/^Failed query: select \$1::int/);
      expect(message).not.toContain('secret-value-for-the-hash');
    } finally {
      await stop();
    }
  }, 30_000);
});
