import { sql } from 'drizzle-orm';
import { threadId } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app';
import { AppError } from '../errors';
import { TaskStoppedError } from './thread-pool';
import { defineThreadTask, startThreadTasks, type ThreadTasks } from './thread-tasks';
import type { ProbeTask } from './thread-tasks.test-worker';

const probe = defineThreadTask<ProbeTask, { threadId: number }>({
  name: 'probe',
  module: new URL('./thread-tasks.test-worker.ts', import.meta.url),
  timeoutMs: 3_000,
  heapMb: 64,
});

let t: TestApp;
let threads: ThreadTasks;
const stored = async () =>
  (await t.database.db.execute<{ value: string }>(sql`select value from thread_task_probe order by value`)).rows.map(
    (r) => r.value,
  );

beforeAll(async () => {
  t = await createTestApp();
  await t.database.db.execute(sql`create table thread_task_probe (value text not null)`);
  threads = startThreadTasks({ connection: t.database.connection, dns: { servers: [] } });
});
afterAll(async () => {
  await threads?.close();
  await t?.close();
});

describe('a thread task', () => {
  it('runs off the main thread, on the app database', async () => {
    const result = await threads.run(probe, { value: 'kept', then: 'commit' });
    expect(result.threadId).not.toBe(threadId);
    expect(await stored()).toEqual(['kept']);
  });

  it("passes a refusal on with its code, so the caller answers with the refusal's status", async () => {
    const error = await threads.run(probe, { value: 'refused', then: 'refuse' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: 'payload_too_large', status: 413, message: 'Too big to take.' });
    expect(await stored()).toEqual(['kept']);
  });

  it('is stopped at its time limit, and what it wrote in its transaction is not kept', async () => {
    await expect(threads.run(probe, { value: 'half-done', then: 'spin' })).rejects.toBeInstanceOf(TaskStoppedError);
    expect(await stored()).toEqual(['kept']);
    // A fresh thread takes the next task.
    await threads.run(probe, { value: 'next', then: 'commit' });
    expect(await stored()).toEqual(['kept', 'next']);
  });
});

describe('thread tasks for several callers', () => {
  it("serve each caller's lane in turn", async () => {
    const finished: string[] = [];
    const run = (value: string, lane: string) =>
      threads.run(probe, { value, then: 'commit' }, { lane }).then(() => finished.push(value));
    // One turn of the event loop: the queue hands the tasks out before any can finish.
    await Promise.all([run('a1', 'a'), run('a2', 'a'), run('a3', 'a'), run('b1', 'b')]);
    expect(finished).toEqual(['a1', 'b1', 'a2', 'a3']);
  });
});
