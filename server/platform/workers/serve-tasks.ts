import { parentPort } from 'node:worker_threads';
import { AppError } from '../errors';
import type { TaskReply, TaskRequest } from './thread-pool';

/** The thread side of a ThreadPool: runs each task it is given with `run` and answers with the result. */
export function serveTasks<In, Out>(run: (input: In) => Promise<Out>): void {
  const port = parentPort;
  if (!port) throw new Error('serveTasks runs in a worker thread started by a ThreadPool');
  const reply = (message: TaskReply) => port.postMessage(message);
  port.on('message', ({ id, input }: TaskRequest) => {
    run(input as In).then(
      (output) => reply({ id, output }),
      // An AppError keeps its code, so the caller answers with its status (a 413 stays a 413).
      (error: unknown) =>
        reply({
          id,
          error: error instanceof Error ? error.message : String(error),
          code: error instanceof AppError ? error.code : undefined,
        }),
    );
  });
  // The module and everything it imports are loaded: the pool may send work (and start the clock).
  reply({ ready: true });
}
