import type { AppContext } from '../context';
import type { JobType } from '../job-sender';

/**
 * One job: a queue name, the shape of its data, how to run it, and an optional cron schedule (UTC).
 * It runs with the same context routes get; it does not build its own connections.
 */
export interface JobDefinition<T = unknown> extends JobType<T> {
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
  /**
   * How many workers of this queue a process runs (default 1), each fetching its own batch: a job that
   * waits long (a receiver that never answers) holds up only its own worker's batch, not the others'.
   */
  workers?: number;
  run(data: T, ctx: AppContext): Promise<void>;
}

/**
 * A job of any data type, as the registry lists them: each job checks its own data with its schema
 * before run() sees it, so the list need not know the types.
 */
// run(data: T) is contravariant: no other type holds every job.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyJob = JobDefinition<any>;

/** How a job runs: everything but its name and schema, which its definition (`<name>.job.ts`) holds. */
export type RunnerOptions<T> = Omit<JobDefinition<T>, 'name' | 'schema'>;

/**
 * A job's runner, in `<name>.runner.ts` beside the job's definition: the definition (name, schema,
 * sender) is what any layer may import to queue the job; the runner imports the code that does the work.
 */
export function defineRunner<T>(job: JobType<T>, options: RunnerOptions<T>): JobDefinition<T> {
  return { ...job, ...options };
}
