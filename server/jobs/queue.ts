import PgBoss from 'pg-boss';
import type { Logger } from 'pino';
import type { Database } from '../db/client';
import type { Notifications } from '../db/notifications';
import type { JobContext, JobDefinition, JobSender } from './job';

export interface JobQueueOptions {
  database: Database;
  notifications: Notifications;
  jobs: JobDefinition<any>[];
  log: Logger;
  /** Run jobs and schedules here (the worker role); otherwise this process only sends. */
  work: boolean;
  /** How often workers poll and the cron monitor ticks; tests shorten it. */
  pollSeconds?: number;
}

export interface JobQueue extends JobSender {
  start(context: Omit<JobContext, 'jobs' | 'log'>): Promise<void>;
  stop(): Promise<void>;
}

/** pg-boss on the app's own database, with a small pool of its own. */
export function createJobQueue(options: JobQueueOptions): JobQueue {
  const { database, jobs, log, work } = options;
  const pollSeconds = options.pollSeconds ?? 2;
  const byName = new Map(jobs.map((j) => [j.name, j]));
  const boss = new PgBoss({
    ...database.connection,
    max: 4,
    schedule: work,
    supervise: work,
    cronMonitorIntervalSeconds: Math.max(1, Math.min(30, pollSeconds)),
    cronWorkerIntervalSeconds: Math.max(1, Math.min(5, pollSeconds)),
  });
  boss.on('error', (err) => log.error({ err }, 'job queue error'));

  const queue: JobQueue = {
    async send(name, data, sendOptions = {}) {
      const job = byName.get(name);
      if (!job) throw new Error(`Unknown job ${name}`);
      await boss.send(name, job.schema.parse(data) as object, {
        singletonKey: sendOptions.singletonKey,
        startAfter: sendOptions.startAfterSeconds,
      });
    },

    async start(context) {
      await boss.start();
      for (const job of jobs) {
        // The retry and queue policies live on the queue so every sender shares them. createQueue
        // leaves an existing queue as it was; updateQueue brings it in line with the definition.
        const settings = { retryLimit: job.retryLimit ?? 2, retryDelay: job.retryDelaySeconds ?? 10, retryBackoff: true, policy: job.policy ?? 'standard' };
        await boss.createQueue(job.name, { name: job.name, ...settings });
        await boss.updateQueue(job.name, { name: job.name, ...settings });
      }
      if (!work) return;
      for (const job of jobs) {
        const workerId: string = await boss.work(job.name, { pollingIntervalSeconds: Math.max(0.5, pollSeconds) }, async ([item]) => {
          const jobLog = log.child({ job: job.name, jobId: item.id });
          try {
            const data = job.schema.parse(item.data);
            await job.run(data, { ...context, log: jobLog, jobs: queue });
          } finally {
            // pg-boss 10 waits a whole polling interval after every job, even with more queued: one
            // job per 2 s. A notified worker fetches again at once, and waits only when none is left.
            boss.notifyWorker(workerId);
          }
        });
        if (job.schedule) await boss.schedule(job.name, job.schedule, {}, { tz: 'UTC' });
        else await boss.unschedule(job.name);
      }
    },

    async stop() {
      await boss.stop({ graceful: true, wait: true, timeout: 20_000 });
    },
  };
  return queue;
}
