import type { Logger } from 'pino';
import type { Db } from './db/client';
import type { DnsResolver } from './dns/resolver';
import type { Env } from './env';
import type { JobSender } from './job-sender';
import type { Mailer } from './mail/mailer';
import type { MessageAnalyser } from './message-analyser';
import type { ThreadTasks } from './workers/thread-tasks';

/** What routes, services and jobs are given: one object, built once per process (buildApp, the job worker). */
export interface AppContext {
  env: Env;
  db: Db;
  mailer: Mailer;
  dns: DnsResolver;
  analyser: MessageAnalyser;
  /** Heavy work off the event loop, with the database (thread-tasks.ts). */
  threads: ThreadTasks;
  jobs: JobSender;
  log: Logger;
}
