import { workerData } from 'node:worker_threads';
import { openDatabase, type ConnectionSettings, type Db } from '../db/client';
import { createResolver, type DnsResolver, type ResolverOptions } from '../dns/resolver';
import { createThreadPool, type RunOptions, type ThreadPool } from './thread-pool';
import { serveTasks } from './serve-tasks';

/**
 * Heavy work a capability runs off the event loop that answers HTTP and SMTP, with the database and
 * DNS at hand: the thread opens its own small pool on the app's database, so it reads and stores
 * without sending its results back through the main thread (whose event loop would pay for copying
 * them), and its own resolver on the app's DNS_SERVERS.
 *
 * A capability declares the task once (`defineThreadTask`, beside the code that runs it), writes
 * the thread's module with `serveThreadTask`, and runs it with `ctx.threads.run(task, input, { lane })`. Each
 * task has its own pool, started on first use; its threads end after a minute without work.
 *
 * A task that overruns its time limit, or its thread's heap limit, rejects with TaskStoppedError
 * (thread-pool.ts); a thread ended mid-transaction closes its connection, so PostgreSQL rolls the
 * transaction back and nothing half-done is kept.
 */
export interface ThreadTask<In, Out> {
  name: string;
  /** The thread's module: a .ts file from source, the bundle's .js entry beside dist/server.js in production. */
  module: URL;
  timeoutMs: number;
  /** V8 old-generation heap per thread. */
  heapMb: number;
  /** Threads at most (default 1: each runs one task at a time, the rest wait their turn). */
  threads?: number;
  /** Phantom: keeps In and Out on the type. */
  readonly types?: { input: In; output: Out };
}

export function defineThreadTask<In, Out>(task: Omit<ThreadTask<In, Out>, 'types'>): ThreadTask<In, Out> {
  return task;
}

export interface ThreadTasks {
  /** `lane`: who the task is for, so one caller's burst does not hold up everyone's (RunOptions). */
  run<In, Out>(task: ThreadTask<In, Out>, input: In, options?: RunOptions): Promise<Out>;
  close(): Promise<void>;
}

/** What every task thread is started with: where the app's database is, and the app's resolver settings. */
export interface ThreadTaskSettings {
  connection: ConnectionSettings;
  dns: ResolverOptions;
}

/** What a task runs with in its thread. */
export interface ThreadTaskDeps {
  db: Db;
  dns: DnsResolver;
}

/** Database connections per thread: one for the task's transaction, one spare. */
const THREAD_CONNECTIONS = 2;

export function startThreadTasks(settings: ThreadTaskSettings): ThreadTasks {
  const pools = new Map<ThreadTask<unknown, unknown>, ThreadPool<unknown, unknown>>();
  let closed = false;
  return {
    run<In, Out>(task: ThreadTask<In, Out>, input: In, options?: RunOptions): Promise<Out> {
      if (closed) return Promise.reject(new Error(`The ${task.name} pool is closed.`));
      const key = task as ThreadTask<unknown, unknown>;
      let pool = pools.get(key);
      if (!pool) {
        pool = createThreadPool({
          name: task.name,
          module: task.module,
          workerData: settings,
          size: task.threads ?? 1,
          taskTimeoutMs: task.timeoutMs,
          resourceLimits: { maxOldGenerationSizeMb: task.heapMb },
        });
        pools.set(key, pool);
      }
      return pool.run(input, options) as Promise<Out>;
    },
    async close() {
      closed = true;
      await Promise.all([...pools.values()].map((pool) => pool.close()));
      pools.clear();
    },
  };
}

/** The thread side: runs each task with the thread's own database pool and resolver. */
export function serveThreadTask<In, Out>(run: (input: In, deps: ThreadTaskDeps) => Promise<Out>): void {
  const { connection, dns: dnsOptions } = workerData as ThreadTaskSettings;
  const dns = createResolver(dnsOptions);
  let opening: ReturnType<typeof openDatabase> | undefined;
  serveTasks<In, Out>(async (input) => {
    opening ??= openDatabase(connection, THREAD_CONNECTIONS);
    const { db } = await opening.catch((error: unknown) => {
      opening = undefined; // try again with the next task
      throw error;
    });
    return run(input, { db, dns });
  });
}
