// A thread task for thread-tasks.test.ts: writes to the test's database, then does what the task says.
import { sql } from 'drizzle-orm';
import { threadId } from 'node:worker_threads';
import { AppError } from '../errors';
import { serveThreadTask } from './thread-tasks';

export type ProbeTask = { value: string; then: 'commit' | 'spin' | 'refuse' };

serveThreadTask(async ({ value, then }: ProbeTask, { db }) =>
  db.transaction(async (tx) => {
    await tx.execute(sql`insert into thread_task_probe (value) values (${value})`);
    if (then === 'spin') for (;;); // stuck on the CPU with the transaction open: only the time limit ends it
    if (then === 'refuse') throw new AppError('payload_too_large', 'Too big to take.');
    return { threadId };
  }),
);
