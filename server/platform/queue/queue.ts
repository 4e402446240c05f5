import PgBoss from 'pg-boss';
import type { Logger } from 'pino';
import { oneProcessAtATime, type Database } from '../db/client';
import type { Notifications } from '../db/notifications';
import type { AppContext } from '../context';
import { safeMessage } from '../logger';
import type { AnyJob } from './job';
import type { JobSender } from '../job-sender';

export interface JobQueueOptions {
  database: Database;
  notifications: Notifications;
  jobs: AnyJob[];
  log: Logger;
  /** Run jobs and schedules here (the worker role); otherwise this process only sends. */
  work: boolean;
  /** Fire the jobs' cron schedules (default: when working). Test apps turn them off. */
  schedules?: boolean;
  /** How often workers poll and the cron monitor ticks; tests shorten it. */
  pollSeconds?: number;
}

export interface JobQueue extends JobSender {
  start(context: Omit<AppContext, 'jobs' | 'log'>): Promise<void>;
  stop(): Promise<void>;
}

// Any fixed number, other than the migrations' lock.
const QUEUE_SETUP_LOCK_ID = 8_042_214;

/** The NOTIFY channel on which a sender names the queue it just added a job to. */
export const JOB_QUEUED_CHANNEL = 'job_queued';

/**
 * pg-boss on the app's own database, with a small pool of its own.
 *
 * Waking workers: pg-boss 10 workers poll (every `pollSeconds`), so a job would wait up to a whole
 * interval. Instead every send is followed by a NOTIFY naming the queue, and every worker process
 * wakes that queue's worker at once (pg-boss notifyWorker); a worker that just finished a batch
 * fetches again at once too, so a backlog drains without waits, and polling is only the fallback.
 */
export function createJobQueue(options: JobQueueOptions): JobQueue {
  const { database, notifications, jobs, log, work } = options;
  const schedules = work && (options.schedules ?? true);
  const pollSeconds = options.pollSeconds ?? 2;
  const byName = new Map(jobs.map((j) => [j.name, j]));
  const boss = new PgBoss({
    ...database.connection,
    max: 4,
    schedule: schedules,
    supervise: work,
    // How often schedules are read and their cron expressions evaluated. Cron is minute-grained and
    // pg-boss fires anything due in the last 60 s, so every 30 s (its default) misses nothing; every
    // poll (2 s) spent 1-2 % of a busy web process's CPU on it (bench:api). Tests poll every second.
    cronMonitorIntervalSeconds: pollSeconds < 2 ? 1 : 30,
    cronWorkerIntervalSeconds: Math.max(1, Math.min(5, pollSeconds)),
  });
  boss.on('error', (err) => log.error({ err }, 'job queue error'));
  /** pg-boss worker ids by queue name, in this process. */
  const workers = new Map<string, string[]>();
  let stopped = false;

  const wake = (name: string) => {
    if (stopped) return;
    for (const workerId of workers.get(name) ?? []) boss.notifyWorker(workerId);
  };

  const queue: JobQueue = {
    async send(type, data, sendOptions = {}) {
      const { name } = type;
      const job = byName.get(name);
      if (!job) throw new Error(`Unknown job ${name}`);
      const id = await boss.send(name, job.schema.parse(data) as object, {
        singletonKey: sendOptions.singletonKey,
        startAfter: sendOptions.startAfterSeconds,
        // pg-boss refuses a priority key that is present but undefined.
        ...(sendOptions.priority && { priority: sendOptions.priority }),
      });
      // null: the queue policy dropped it (one is waiting already). A delayed job is found by polling.
      if (id && !sendOptions.startAfterSeconds) await notifyQueued(name);
    },

    async start(context) {
      // Processes starting together on a fresh database (ROLES split over several) set pg-boss up in turn: the first
      // creates the queues (a table and foreign keys each), and a queue created while another process creates it too,
      // or queries pg-boss's tables, deadlocks. The next ones find the queues there and change nothing.
      await oneProcessAtATime(database.pool, QUEUE_SETUP_LOCK_ID, async () => {
        await boss.start();
        // Read once: a restart finds every queue as it left it and writes nothing (it wrote each queue twice and
        // each schedule once, each write its own commit, before it could answer: bench:start).
        const existing = new Map((await boss.getQueues()).map((q) => [q.name, q]));
        for (const job of jobs) {
          // The retry and queue policies live on the queue so every sender shares them; a queue whose
          // policies differ from the definition (a new version changed them) is brought in line.
          // A retry waits at least a second: a failed job is retried under the same id, and pg-boss
          // completes a batch's jobs right after the batch, which must not catch the retry running.
          const settings = {
            retryLimit: job.retryLimit ?? 2,
            retryDelay: Math.max(1, job.retryDelaySeconds ?? 10),
            retryBackoff: true,
            policy: job.policy ?? 'standard',
          };
          const queue = existing.get(job.name);
          if (!queue) await boss.createQueue(job.name, { name: job.name, ...settings });
          else if ((Object.keys(settings) as (keyof typeof settings)[]).some((key) => queue[key] !== settings[key]))
            await boss.updateQueue(job.name, { name: job.name, ...settings });
        }
      });
      if (!work) return;
      await notifications.subscribe(JOB_QUEUED_CHANNEL, wake);
      // Notifications sent while the listening connection was down are lost: look at every queue.
      notifications.onReconnect(() => {
        for (const name of workers.keys()) wake(name);
      });
      const scheduled = new Map((await boss.getSchedules()).map((s) => [s.name, s]));
      for (const job of jobs) {
        const ids: string[] = [];
        for (let i = 0; i < (job.workers ?? 1); i++)
          ids.push(
            await boss.work(
              job.name,
              { pollingIntervalSeconds: Math.max(0.5, pollSeconds), batchSize: job.batchSize ?? 1 },
              async (batch) => {
                await Promise.all(batch.map((item) => runJob(job, item, context)));
                // More may be waiting (a backlog, or jobs queued while no one listened): fetch again at once.
                wake(job.name);
              },
            ),
          );
        workers.set(job.name, ids);
        const current = scheduled.get(job.name);
        if (job.schedule && schedules) {
          if (current?.cron !== job.schedule) await boss.schedule(job.name, job.schedule, {}, { tz: 'UTC' });
        } else if (current) await boss.unschedule(job.name);
      }
      // A schedule of a job this version no longer has would queue work nobody takes, every time it fires.
      for (const name of scheduled.keys()) if (!workers.has(name)) await boss.unschedule(name);
    },

    async stop() {
      stopped = true;
      await boss.stop({ graceful: true, wait: true, timeout: 20_000 });
    },
  };

  /** Queues with a NOTIFY about to go out: sends stored in the same turn of the event loop share one. */
  const notifying = new Map<string, Promise<void>>();
  function notifyQueued(name: string): Promise<void> {
    let notified = notifying.get(name);
    if (!notified) {
      notified = new Promise((resolve) => setImmediate(resolve)).then(async () => {
        notifying.delete(name); // a send stored from now on needs a NOTIFY of its own
        await database.pool.query('SELECT pg_notify($1, $2)', [JOB_QUEUED_CHANNEL, name]);
      });
      notifying.set(name, notified);
    }
    return notified;
  }

  /**
   * One job of a batch, failed on its own: pg-boss 10 would fail the whole batch for one job's error.
   * When the batch is done pg-boss completes its jobs, which touches only those still active: not
   * the failed ones.
   */
  async function runJob(
    job: AnyJob,
    item: PgBoss.Job<unknown>,
    context: Omit<AppContext, 'jobs' | 'log'>,
  ): Promise<void> {
    const jobLog = log.child({ job: job.name, jobId: item.id });
    let failure: Error | undefined;
    try {
      await job.run(job.schema.parse(item.data), { ...context, log: jobLog, jobs: queue });
    } catch (err) {
      failure = err instanceof Error ? err : new Error(String(err));
      jobLog.warn({ err: failure }, 'job failed');
    }
    // If recording the failure fails (the database is gone), this throws and pg-boss fails the whole
    // batch rather than completing a job that failed.
    // The message is kept in pg-boss's table: without a failed query's values (a password hash, a secret).
    if (failure) await boss.fail(job.name, item.id, { message: safeMessage(failure) });
  }

  return queue;
}
