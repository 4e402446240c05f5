import type { Logger } from 'pino';
import type { AppDeps } from './app';
import { startAnalysisPool } from './engine/message-analysis/analysis-pool';
import { jobRegistry } from './job-registry';
import type { Database } from './platform/db/client';
import type { Notifications } from './platform/db/notifications';
import { createResolver, type ResolverOptions } from './platform/dns/resolver';
import type { Env } from './platform/env';
import { createMailer } from './platform/mail/mailer';
import { createJobQueue, type JobQueue } from './platform/queue/queue';
import { startThreadTasks } from './platform/workers/thread-tasks';

/** What routes and jobs are given besides the database: mail, DNS, the analysis and thread pools, the job queue. */
export type AppServices = Pick<AppDeps, 'mailer' | 'dns' | 'analyser' | 'threads'> & { jobs: JobQueue };

export interface AppServicesOptions {
  dns: ResolverOptions;
  /** Run jobs here (the worker role); otherwise this process only sends them. */
  work: boolean;
  schedules?: boolean;
  pollSeconds?: number;
}

/**
 * Starts the services on an open database, the job queue last (its jobs run with the others), built the same way
 * by the runtime and by the test app so that tests run what production runs. `stop` closes them in reverse.
 */
export async function startAppServices(
  base: { env: Env; database: Database; notifications: Notifications; logger: Logger },
  options: AppServicesOptions,
): Promise<{ services: AppServices; stop(): Promise<void> }> {
  const { env, database, notifications, logger } = base;
  const mailer = createMailer(env.SMTP_URL, env.MAIL_FROM);
  const dns = createResolver(options.dns);
  // Threads start with the first message to analyse (worker role, or a simulation on the web role).
  const analyser = startAnalysisPool({ dns: options.dns, env });
  const threads = startThreadTasks({ connection: database.connection, dns: options.dns });
  const jobs = createJobQueue({
    database,
    notifications,
    jobs: jobRegistry,
    log: logger,
    work: options.work,
    schedules: options.schedules,
    pollSeconds: options.pollSeconds,
  });
  await jobs.start({ env, db: database.db, mailer, dns, analyser, threads });
  return {
    services: { mailer, dns, analyser, threads, jobs },
    async stop() {
      await jobs.stop(); // lets running jobs finish
      await analyser.close();
      await threads.close();
      mailer.close();
    },
  };
}
