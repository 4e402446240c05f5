import { afterEach, describe, expect, it } from 'vitest';
import { createThreadPool, TaskStoppedError, type ThreadPool } from './thread-pool';
import type { TestTask } from './thread-pool.test-worker';

type Result = { echo: string | null; threadId: number };
const pools: ThreadPool<TestTask, Result>[] = [];
function pool(size: number, taskTimeoutMs = 10_000) {
  const p = createThreadPool<TestTask, Result>({ name: 'test', module: new URL('./thread-pool.test-worker.ts', import.meta.url), size, taskTimeoutMs });
  pools.push(p);
  return p;
}
afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()));
});

describe('a thread pool', () => {
  it('runs tasks on at most `size` threads and returns their results', async () => {
    const p = pool(2);
    const results = await Promise.all(['a', 'b', 'c', 'd', 'e'].map((echo) => p.run({ echo })));
    expect(results.map((r) => r.echo)).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(new Set(results.map((r) => r.threadId)).size).toBeLessThanOrEqual(2);
  });

  it('stops a task stuck on the CPU at its time limit and keeps serving on a fresh thread', async () => {
    const p = pool(1, 500);
    const { threadId } = await p.run({ echo: 'warm' }); // the thread is up: the limit measures the task alone
    const started = Date.now();
    await expect(p.run({ spin: true })).rejects.toThrow(TaskStoppedError);
    expect(Date.now() - started).toBeLessThan(5_000);
    const after = await p.run({ echo: 'still here' });
    expect(after.echo).toBe('still here');
    expect(after.threadId).not.toBe(threadId);
  });

  it('fails the task of a thread that dies, and carries on', async () => {
    const p = pool(1);
    await expect(p.run({ exit: 3 })).rejects.toThrow(TaskStoppedError);
    expect((await p.run({ echo: 'next' })).echo).toBe('next');
  });

  it('passes on an error the task throws, as a plain error, and keeps the thread', async () => {
    const p = pool(1);
    const { threadId } = await p.run({ echo: 'first' });
    const error = await p.run({ throw: 'bad input' }).catch((e: Error) => e);
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(TaskStoppedError);
    expect((error as Error).message).toBe('bad input');
    expect((await p.run({ echo: 'next' })).threadId).toBe(threadId);
  });

  it('rejects running and queued tasks when closed, and new ones after', async () => {
    const p = pool(1);
    const failure = (e: Error) => e.message;
    const running = p.run({ wait: 60_000 }).catch(failure);
    const queued = p.run({ echo: 'never' }).catch(failure);
    await p.close();
    expect(await running).toMatch(/closed/);
    expect(await queued).toMatch(/closed/);
    await expect(p.run({ echo: 'late' })).rejects.toThrow(/closed/);
  });
});
