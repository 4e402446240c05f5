// A ThreadPool worker for thread-pool.test.ts: does what each task says.
import { threadId } from 'node:worker_threads';
import { serveTasks } from './serve-tasks';

export type TestTask = { echo: string } | { spin: true } | { exit: number } | { throw: string } | { wait: number };

serveTasks(async (task: TestTask) => {
  if ('spin' in task) for (;;); // a task stuck on the CPU: only terminating the thread ends it
  if ('exit' in task) process.exit(task.exit); // in a worker thread this ends the thread
  if ('throw' in task) throw new Error(task.throw);
  if ('wait' in task) await new Promise((r) => setTimeout(r, task.wait));
  return { echo: 'echo' in task ? task.echo : null, threadId };
});
