import { describe, expect, it } from 'vitest';
import { waitUntil } from './wait-until';

describe('waitUntil', () => {
  it('returns the first value that is not undefined, null or false', async () => {
    const seen = [undefined, null, false, 0, 1];
    let calls = 0;
    // 0 is a value: only "nothing yet" values keep it polling.
    expect(await waitUntil(() => seen[calls++], 'a value', { intervalMs: 1 })).toBe(0);
    expect(calls).toBe(4);
  });

  it('with `until`, returns the value read once it holds', async () => {
    let n = 0;
    expect(
      await waitUntil(async () => ({ n: ++n }), 'n to reach 3', { intervalMs: 1, until: (v) => v.n >= 3 }),
    ).toEqual({ n: 3 });
  });

  it('times out naming what it waited for and the last value it saw', async () => {
    let n = 0;
    const started = Date.now();
    await expect(
      waitUntil(() => ({ status: 'pending', polls: ++n }), 'the row to leave pending', {
        timeoutMs: 100,
        intervalMs: 10,
        until: (row) => row.status !== 'pending',
      }),
    ).rejects.toThrow(
      /^timed out waiting for the row to leave pending after 100 ms; last seen: \{ status: 'pending', polls: \d+ \}$/,
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(100);
    expect(n).toBeGreaterThan(1);
  });

  it('ends at once with the error of a probe that throws', async () => {
    let calls = 0;
    const failing = () => {
      calls++;
      if (calls === 2) throw new Error('the job failed');
      return undefined;
    };
    await expect(waitUntil(failing, 'a job', { timeoutMs: 10_000, intervalMs: 1 })).rejects.toThrow('the job failed');
    expect(calls).toBe(2);
  });
});
