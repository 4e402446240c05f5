import { Worker, type ResourceLimits } from 'node:worker_threads';
import { AppError, type ErrorCode } from '../errors';

/**
 * A small pool of worker threads for CPU-heavy work that must not run on the event loop that answers
 * HTTP and SMTP (DESIGN.md, "Processes and scale"). Threads start when work arrives and end after a
 * while without any. A thread runs up to `tasksPerThread` tasks at once, so tasks that wait (on DNS)
 * overlap; tasks must therefore be safe to run twice, as a stopped thread's tasks are run again.
 *
 * Time limit and blame: a task that overruns its limit may be stuck itself, or be held up by a task
 * stuck on the CPU beside it, which blocks the whole thread. So the thread is terminated and each of
 * its tasks is run again alone on a thread; only a task that overruns (or kills its thread) while
 * running alone fails, with TaskStoppedError. The same goes for a thread that dies (out of memory).
 *
 * The worker module calls serveTasks() (serve-tasks.ts). It is a .js file in the production bundle
 * and a .ts file when running from source (tsx, vitest); Node 20 does not apply `--import tsx` to a
 * worker's entry module, so a .ts module is started through typescript-worker.mjs, which registers
 * tsx in the thread first.
 */
export interface ThreadPool<In, Out> {
  run(input: In, options?: RunOptions): Promise<Out>;
  /** Rejects queued and running tasks and ends every thread. */
  close(): Promise<void>;
}

export interface RunOptions {
  /**
   * Who the task is for (a user, a sending network). The queue serves lanes in turn: the next task is the oldest of
   * the lane that had a task started least recently, so one lane's burst delays another lane's task by one task, not by
   * the whole burst. Tasks without a lane share one, first come, first served.
   */
  lane?: string;
}

export interface ThreadPoolOptions {
  /** Names the pool in errors. */
  name: string;
  module: URL;
  /** Given to every thread as `workerData`. */
  workerData?: unknown;
  /** Most threads at once. */
  size: number;
  /** Most tasks a thread runs at once (default 1). */
  tasksPerThread?: number;
  /** A task running longer than this is stopped (see above). */
  taskTimeoutMs: number;
  /** A thread without work this long ends (the pool keeps no memory for work that is not there). */
  idleMs?: number;
  /** V8 heap limits per thread: a task that needs more ends its thread (see above). */
  resourceLimits?: ResourceLimits;
}

/** The task did not finish, running alone: it overran the time limit, or its thread died (out of memory). Running it again would do the same. */
export class TaskStoppedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TaskStoppedError';
  }
}

/** What the threads and the pool say to each other. */
export type TaskRequest = { id: number; input: unknown };
export type TaskReply =
  { ready: true } | { id: number; output: unknown } | { id: number; error: string; code?: ErrorCode };

interface Task {
  id: number;
  input: unknown;
  lane: string;
  /** Suspected of stopping a thread: runs with no other task beside it. */
  alone: boolean;
  deadline?: NodeJS.Timeout;
  resolve(output: unknown): void;
  reject(error: Error): void;
}

interface Thread {
  worker: Worker;
  ready: boolean;
  tasks: Map<number, Task>;
  idleTimer?: NodeJS.Timeout;
}

const typescriptBootstrap = new URL('./typescript-worker.mjs', import.meta.url);

export function createThreadPool<In, Out>(options: ThreadPoolOptions): ThreadPool<In, Out> {
  const { name, size, taskTimeoutMs, idleMs = 60_000 } = options;
  const perThread = Math.max(1, options.tasksPerThread ?? 1);
  const threads = new Set<Thread>();
  const queue: Task[] = [];
  /** Tasks to run again alone; they go before the queue. */
  const suspects: Task[] = [];
  /** When each lane last had a task taken from the queue (a count of tasks taken, not a time). */
  const lastTaken = new Map<string, number>();
  let taken = 0;
  let nextId = 1;
  let closed = false;

  function spawn(): void {
    const fromSource = options.module.pathname.endsWith('.ts');
    const worker = fromSource
      ? new Worker(typescriptBootstrap, {
          argv: [options.module.href],
          workerData: options.workerData,
          resourceLimits: options.resourceLimits,
        })
      : new Worker(options.module, { workerData: options.workerData, resourceLimits: options.resourceLimits });
    const thread: Thread = { worker, ready: false, tasks: new Map() };
    threads.add(thread);
    worker.unref();
    worker.on('message', (reply: TaskReply) => {
      if ('ready' in reply) {
        thread.ready = true;
        dispatch();
        if (thread.tasks.size === 0) idle(thread); // others took the work meanwhile
        return;
      }
      const task = thread.tasks.get(reply.id);
      if (!task) return;
      clearTimeout(task.deadline);
      thread.tasks.delete(reply.id);
      if (thread.tasks.size === 0) idle(thread);
      if ('error' in reply) task.reject(reply.code ? new AppError(reply.code, reply.error) : new Error(reply.error));
      else task.resolve(reply.output);
      dispatch();
    });
    worker.on('error', (error) => stopThread(thread, `The ${name} thread ended: ${error.message}`));
    worker.on('exit', (code) => stopThread(thread, `The ${name} thread ended with code ${code}.`));
  }

  /**
   * Ends a thread (overrun, crashed, out of memory): a task that ran alone on it fails with `reason`;
   * tasks that ran beside others are suspects, run again alone.
   */
  function stopThread(thread: Thread, reason: string): void {
    if (!threads.delete(thread)) return;
    clearTimeout(thread.idleTimer);
    void thread.worker.terminate();
    const tasks = [...thread.tasks.values()];
    thread.tasks.clear();
    for (const task of tasks) {
      clearTimeout(task.deadline);
      if (task.alone || tasks.length === 1) task.reject(new TaskStoppedError(reason));
      else suspects.push({ ...task, alone: true, deadline: undefined });
    }
    if (!thread.ready && threads.size === 0 && !closed) {
      // No thread got going (a missing or broken module): waiting for one would wait forever.
      for (const waiting of [...suspects.splice(0), ...queue.splice(0)])
        waiting.reject(new Error(`${reason} It could not start.`));
    }
    dispatch();
  }

  function idle(thread: Thread): void {
    thread.worker.unref(); // busy threads keep the process alive, idle ones do not
    thread.idleTimer = setTimeout(() => {
      if (thread.tasks.size === 0 && threads.delete(thread)) void thread.worker.terminate();
    }, idleMs);
    thread.idleTimer.unref();
  }

  function start(thread: Thread, task: Task): void {
    clearTimeout(thread.idleTimer);
    thread.worker.ref();
    thread.tasks.set(task.id, task);
    task.deadline = setTimeout(
      () => stopThread(thread, `The ${name} took longer than ${taskTimeoutMs / 1000} s and was stopped.`),
      taskTimeoutMs,
    );
    thread.worker.postMessage({ id: task.id, input: task.input } satisfies TaskRequest);
  }

  /** The oldest queued task of the lane served least recently (RunOptions.lane); a lane never served comes first. */
  function takeNext(): Task {
    // A lane with nothing queued or running is forgotten: when it comes back it is served as a new one, and the map
    // holds no more lanes than there are tasks.
    const running = [...threads].flatMap((thread) => [...thread.tasks.values()]);
    const active = new Set([...queue, ...suspects, ...running].map((task) => task.lane));
    for (const lane of lastTaken.keys()) if (!active.has(lane)) lastTaken.delete(lane);
    let next = queue[0];
    for (const task of queue) if ((lastTaken.get(task.lane) ?? 0) < (lastTaken.get(next.lane) ?? 0)) next = task;
    queue.splice(queue.indexOf(next), 1);
    lastTaken.set(next.lane, ++taken);
    return next;
  }

  function dispatch(): void {
    if (closed) return;
    for (const thread of threads) {
      if (!thread.ready) continue;
      if (suspects.length > 0) {
        // A suspect waits for an empty thread, and meanwhile no thread takes new work, or a busy pool would never empty
        // one.
        if (thread.tasks.size === 0) start(thread, suspects.shift()!);
        continue;
      }
      const runsAlone = [...thread.tasks.values()].some((t) => t.alone);
      while (!runsAlone && queue.length > 0 && thread.tasks.size < perThread) start(thread, takeNext());
    }
    // Work left over: start more threads, up to the size, counting those still starting (a burst
    // should not start more threads than it can use). Suspects need one empty thread.
    let starting = [...threads].filter((t) => !t.ready).length;
    const needed = suspects.length > 0 ? 1 : Math.ceil(queue.length / perThread);
    while (starting < needed && threads.size < size) {
      spawn();
      starting++;
    }
  }

  function rejectAll(error: Error): void {
    for (const task of [...suspects.splice(0), ...queue.splice(0)]) task.reject(error);
    for (const thread of threads) {
      clearTimeout(thread.idleTimer);
      for (const task of thread.tasks.values()) {
        clearTimeout(task.deadline);
        task.reject(error);
      }
      thread.tasks.clear();
    }
  }

  return {
    run(input, { lane = '' } = {}) {
      if (closed) return Promise.reject(new Error(`The ${name} pool is closed.`));
      return new Promise<Out>((resolve, reject) => {
        queue.push({ id: nextId++, input, lane, alone: false, resolve: resolve as (output: unknown) => void, reject });
        dispatch();
      });
    },
    async close() {
      closed = true;
      rejectAll(new Error(`The ${name} pool is closed.`));
      const all = [...threads];
      threads.clear();
      await Promise.all(all.map((thread) => thread.worker.terminate()));
    },
  };
}
