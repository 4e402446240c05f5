import { describe, expect, it } from 'vitest';
import { gatedAnalytics } from './analytics-gate';

const deferred = () => {
  let resolve!: (value: string) => void;
  const promise = new Promise<string>((r) => (resolve = r));
  return { promise, resolve };
};

describe('the analytics gate', () => {
  it('answers the same question asked again meanwhile with the one computation', async () => {
    const answer = deferred();
    let computed = 0;
    const compute = () => (computed++, answer.promise);
    const asks = [gatedAnalytics('same', compute), gatedAnalytics('same', compute), gatedAnalytics('same', compute)];
    answer.resolve('figures');
    expect(await Promise.all(asks)).toEqual(['figures', 'figures', 'figures']);
    expect(computed).toBe(1);
    // Once answered, a new ask computes afresh (nothing is cached beyond the computation).
    await gatedAnalytics('same', async () => (computed++, 'new'));
    expect(computed).toBe(2);
  });

  it('runs different questions at most a few at a time, and passes a failure to its askers only', async () => {
    let running = 0;
    let most = 0;
    const compute = (i: number) => async () => {
      running++;
      most = Math.max(most, running);
      await new Promise((r) => setTimeout(r, 20));
      running--;
      if (i === 3) throw new Error('boom');
      return `answer ${i}`;
    };
    const results = await Promise.allSettled(Array.from({ length: 8 }, (_, i) => gatedAnalytics(`q${i}`, compute(i))));
    expect(results.map((r) => r.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'fulfilled',
      'rejected',
      'fulfilled',
      'fulfilled',
      'fulfilled',
      'fulfilled',
    ]);
    expect(most).toBeLessThanOrEqual(Math.max(1, (await import('node:os')).availableParallelism() - 1));
  });
});
