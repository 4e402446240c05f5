import { afterEach, describe, expect, it } from 'vitest';
import { createThreadPool, TaskStoppedError, type ThreadPool } from './thread-pool';
import type { TestTask } from './thread-pool.test-worker';

type Result = { echo: string | null; threadId: number };
const pools: ThreadPool<TestTask, Result>[] = [];
function pool(size: number, taskTimeoutMs = 10_000, tasksPerThread = 1) {
  const module = new URL('./thread-pool.test-worker.ts', import.meta.url);
  const p = createThreadPool<TestTask, Result>({ name: 'test', module, size, taskTimeoutMs, tasksPerThread });
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

  it('runs several tasks on one thread at once', async () => {
    const p = pool(1, 10_000, 3);
    const started = Date.now();
    const results = await Promise.all([p.run({ wait: 2_000 }), p.run({ wait: 2_000 }), p.run({ wait: 2_000 })]);
    expect(new Set(results.map((r) => r.threadId)).size).toBe(1);
    // One after another would take 6 s; side by side 2 s, with room for a busy machine.
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('blames the task stuck on the CPU, not the one it held up on the same thread', async () => {
    const p = pool(1, 1_000, 2);
    await p.run({ echo: 'warm' });
    // The innocent task starts first, so its time runs out first: the stuck one blocks the whole thread.
    const innocent = p.run({ wait: 200 });
    const stuck = p.run({ spin: true }).catch((e: Error) => e);
    expect((await innocent).echo).toBeNull();
    expect(await stuck).toBeInstanceOf(TaskStoppedError);
  });

  it('blames the task that killed a thread it shared', async () => {
    const p = pool(1, 10_000, 2);
    await p.run({ echo: 'warm' });
    const innocent = p.run({ wait: 200 });
    const killer = p.run({ exit: 3 }).catch((e: Error) => e);
    expect((await innocent).echo).toBeNull();
    expect(await killer).toBeInstanceOf(TaskStoppedError);
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

  // Every run() below is called in one turn of the event loop, before any thread can answer: the order in which the
  // tasks finish on the one thread is the order in which the queue handed them out, whatever the timing.
  async function finishOrder(p: ThreadPool<TestTask, Result>, tasks: { echo: string; lane?: string }[]) {
    const finished: string[] = [];
    await Promise.all(tasks.map(({ echo, lane }) => p.run({ echo }, { lane }).then((r) => finished.push(r.echo!))));
    return finished;
  }

  it("serves lanes in turn: one lane's queued burst does not hold up another lane's task", async () => {
    const p = pool(1);
    await p.run({ echo: 'warm' }); // the first task starts at once, the rest wait in the queue
    const burst = ['A1', 'A2', 'A3', 'A4'].map((echo) => ({ echo, lane: 'A' }));
    expect(await finishOrder(p, [...burst, { echo: 'B1', lane: 'B' }])).toEqual(['A1', 'B1', 'A2', 'A3', 'A4']);
  });

  it('serves lanes in turn on a thread that is still starting', async () => {
    const p = pool(1);
    const tasks = [
      { echo: 'A1', lane: 'A' },
      { echo: 'A2', lane: 'A' },
      { echo: 'B1', lane: 'B' },
      { echo: 'B2', lane: 'B' },
      { echo: 'C1', lane: 'C' },
    ];
    expect(await finishOrder(p, tasks)).toEqual(['A1', 'B1', 'C1', 'A2', 'B2']);
  });

  it('runs tasks without a lane first come, first served', async () => {
    const p = pool(1);
    await p.run({ echo: 'warm' });
    const tasks = ['1', '2', '3', '4', '5'].map((echo) => ({ echo }));
    expect(await finishOrder(p, tasks)).toEqual(['1', '2', '3', '4', '5']);
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
