import { Worker, type ResourceLimits } from 'node:worker_threads';

/**
 * A small pool of worker threads for CPU-heavy work that must not run on the event loop that answers
 * HTTP and SMTP (DESIGN.md, "Processes and scale"). Each thread runs one task at a time, so a task
 * that overruns its time limit is the one to blame: its thread is terminated and a fresh one takes
 * the next task. Threads start when work arrives and leave after a while without any.
 *
 * The worker module calls serveTasks() (serve-tasks.ts). It is a .js file in the production bundle
 * and a .ts file when running from source (tsx, vitest); Node 20 does not apply `--import tsx` to a
 * worker's entry module, so a .ts module is started through typescript-worker.mjs, which registers
 * tsx in the thread first.
 */
export interface ThreadPool<In, Out> {
  run(input: In): Promise<Out>;
  /** Rejects queued and running tasks and ends every thread. */
  close(): Promise<void>;
}

export interface ThreadPoolOptions {
  /** Names the pool in errors. */
  name: string;
  module: URL;
  /** Given to every thread as `workerData`. */
  workerData?: unknown;
  /** Most threads at once. */
  size: number;
  /** A task running longer than this is stopped with TaskStoppedError and its thread replaced. */
  taskTimeoutMs: number;
  /** A thread without work this long ends (the pool keeps no memory for work that is not there). */
  idleMs?: number;
  /** V8 heap limits per thread: a task that needs more ends its thread with TaskStoppedError. */
  resourceLimits?: ResourceLimits;
}

/** The task did not finish: it overran the time limit, or its thread died (out of memory). Running it again would do the same. */
export class TaskStoppedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TaskStoppedError';
  }
}

/** What the threads and the pool say to each other. */
export type TaskRequest = { id: number; input: unknown };
export type TaskReply = { ready: true } | { id: number; output: unknown } | { id: number; error: string };

interface Task {
  id: number;
  input: unknown;
  resolve(output: unknown): void;
  reject(error: Error): void;
}

interface Thread {
  worker: Worker;
  ready: boolean;
  task?: Task;
  deadline?: NodeJS.Timeout;
  idleTimer?: NodeJS.Timeout;
}

const typescriptBootstrap = new URL('./typescript-worker.mjs', import.meta.url);

export function createThreadPool<In, Out>(options: ThreadPoolOptions): ThreadPool<In, Out> {
  const { name, size, taskTimeoutMs, idleMs = 60_000 } = options;
  const threads = new Set<Thread>();
  const queue: Task[] = [];
  let nextId = 1;
  let closed = false;

  function spawn(): void {
    const fromSource = options.module.pathname.endsWith('.ts');
    const worker = fromSource
      ? new Worker(typescriptBootstrap, { argv: [options.module.href], workerData: options.workerData, resourceLimits: options.resourceLimits })
      : new Worker(options.module, { workerData: options.workerData, resourceLimits: options.resourceLimits });
    const thread: Thread = { worker, ready: false };
    threads.add(thread);
    worker.unref();
    worker.on('message', (reply: TaskReply) => {
      if ('ready' in reply) {
        thread.ready = true;
        dispatch();
        return;
      }
      const task = thread.task;
      if (!task || task.id !== reply.id) return;
      finish(thread);
      if ('error' in reply) task.reject(new Error(reply.error));
      else task.resolve(reply.output);
      dispatch();
    });
    worker.on('error', (error) => ended(thread, error));
    worker.on('exit', (code) => ended(thread, new Error(`exited with code ${code}`)));
  }

  /** The thread is gone (crashed, out of memory, or terminated by us): its task fails and the pool carries on without it. */
  function ended(thread: Thread, error: Error): void {
    if (!threads.delete(thread)) return;
    clearTimeout(thread.deadline);
    clearTimeout(thread.idleTimer);
    const task = thread.task;
    if (task) task.reject(new TaskStoppedError(`The ${name} thread ended while working: ${error.message}`));
    else if (!thread.ready && threads.size === 0 && !closed) {
      // No thread got going (a missing or broken module): waiting for one would wait forever.
      for (const waiting of queue.splice(0)) waiting.reject(new Error(`The ${name} thread could not start: ${error.message}`));
    }
    void thread.worker.terminate();
    dispatch();
  }

  function finish(thread: Thread): void {
    clearTimeout(thread.deadline);
    thread.task = undefined;
    thread.worker.unref();
    thread.idleTimer = setTimeout(() => {
      if (!thread.task && threads.delete(thread)) void thread.worker.terminate();
    }, idleMs);
    thread.idleTimer.unref();
  }

  function dispatch(): void {
    if (closed) return;
    for (const thread of threads) {
      if (queue.length === 0) return;
      if (!thread.ready || thread.task) continue;
      const task = queue.shift()!;
      clearTimeout(thread.idleTimer);
      thread.task = task;
      // Busy threads keep the process alive, idle ones do not.
      thread.worker.ref();
      thread.deadline = setTimeout(() => {
        if (thread.task !== task) return;
        threads.delete(thread);
        thread.task = undefined;
        void thread.worker.terminate();
        task.reject(new TaskStoppedError(`The ${name} took longer than ${taskTimeoutMs / 1000} s and was stopped.`));
        dispatch();
      }, taskTimeoutMs);
      thread.worker.postMessage({ id: task.id, input: task.input } satisfies TaskRequest);
    }
    // Work left over and no idle thread: start one more, up to the size (a thread that is still
    // starting counts, so a burst does not start more threads than it can use).
    let starting = [...threads].filter((t) => !t.ready).length;
    while (queue.length > starting && threads.size < size) {
      spawn();
      starting++;
    }
  }

  return {
    run(input) {
      if (closed) return Promise.reject(new Error(`The ${name} pool is closed.`));
      return new Promise<Out>((resolve, reject) => {
        queue.push({ id: nextId++, input, resolve: resolve as (output: unknown) => void, reject });
        dispatch();
      });
    },
    async close() {
      closed = true;
      for (const task of queue.splice(0)) task.reject(new Error(`The ${name} pool is closed.`));
      const all = [...threads];
      threads.clear();
      for (const thread of all) {
        clearTimeout(thread.deadline);
        clearTimeout(thread.idleTimer);
        thread.task?.reject(new Error(`The ${name} pool is closed.`));
      }
      await Promise.all(all.map((thread) => thread.worker.terminate()));
    },
  };
}
