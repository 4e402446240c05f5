import type { Logger } from 'pino';
import type { z } from 'zod';
import type { Db } from '../db/client';
import type { DnsResolver } from '../dns/resolver';
import type { Env } from '../env';
import type { MessageAnalyser } from '../message-analysis/analysis-pool';
import type { Mailer } from '../mail/mailer';

/** What a job may use. Jobs receive it; they do not build their own connections. */
export interface JobContext {
  env: Env;
  db: Db;
  mailer: Mailer;
  dns: DnsResolver;
  /** Analyses messages in worker threads, off the event loop. */
  analyser: MessageAnalyser;
  log: Logger;
  jobs: JobSender;
}

export interface JobSender {
  send(name: string, data: unknown, options?: { singletonKey?: string; startAfterSeconds?: number }): Promise<void>;
}

/** One job: a queue name, the shape of its data, how to run it, and an optional cron schedule (UTC). */
export interface JobDefinition<T = unknown> {
  name: string;
  schema: z.ZodType<T>;
  schedule?: string;
  retryLimit?: number;
  retryDelaySeconds?: number;
  /**
   * pg-boss queue policy. 'stately': at most one job waiting and one running per singletonKey (jobs
   * sent without a key share one), so a job queued again while it waits is dropped. The default
   * 'standard' ignores singletonKey in pg-boss 10, so only jobs whose every send carries a key that
   * names their item may use 'stately'.
   */
  policy?: 'standard' | 'stately';
  /**
   * How many jobs a worker fetches at once and runs side by side (default 1). Each job completes or
   * fails on its own; the worker fetches the next batch when the whole batch is done. Raise it for
   * jobs that mostly wait (on the network, on a worker thread, on the database).
   */
  batchSize?: number;
  run(data: T, ctx: JobContext): Promise<void>;
}

/**
 * A job of any data type, as the registry lists them: each job checks its own data with its schema
 * before run() sees it, so the list need not know the types.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- run(data: T) is contravariant: no other type holds every job
export type AnyJob = JobDefinition<any>;

export function defineJob<T>(job: JobDefinition<T>): JobDefinition<T> {
  return job;
}
