import type { Logger } from 'pino';
import type { Db } from './db/client';
import type { DnsResolver } from './dns/resolver';
import type { Env } from './env';
import type { MessageAnalyser } from './message-analysis/analysis-pool';
import type { JobSender } from './queue/job';
import type { Mailer } from './mail/mailer';

/** What services are built from. One object, built once in buildApp. */
export interface AppContext {
  env: Env;
  db: Db;
  mailer: Mailer;
  dns: DnsResolver;
  analyser: MessageAnalyser;
  jobs: JobSender;
  log: Logger;
}
