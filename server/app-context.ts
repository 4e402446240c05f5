import type { Logger } from 'pino';
import type { Db } from './db/client';
import type { Env } from './env';
import type { JobSender } from './jobs/job';
import type { Mailer } from './mail/mailer';

/** What services are built from. One object, built once in buildApp. */
export interface AppContext {
  env: Env;
  db: Db;
  mailer: Mailer;
  jobs: JobSender;
  log: Logger;
}
