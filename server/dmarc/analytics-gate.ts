import { availableParallelism } from 'node:os';

/*
 * DMARC analytics over a large account cost the database hundreds of milliseconds of CPU. Several
 * computations at once would take every core, and then the API answers late however free its event
 * loop is (bench:hostile, "analytics x6"). So the same question asked again while it is being answered
 * shares the answer being computed, and at most one computation per core but one runs at a time.
 */
const MAX_RUNNING = Math.max(1, availableParallelism() - 1);

const inFlight = new Map<string, Promise<unknown>>();
const waiting: (() => void)[] = [];
let running = 0;

export function gatedAnalytics<T>(key: string, compute: () => Promise<T>): Promise<T> {
  const shared = inFlight.get(key) as Promise<T> | undefined;
  if (shared) return shared;
  const answer = (async () => {
    if (running >= MAX_RUNNING) await new Promise<void>((resolve) => waiting.push(resolve));
    running++;
    try {
      return await compute();
    } finally {
      running--;
      waiting.shift()?.();
    }
  })().finally(() => inFlight.delete(key));
  inFlight.set(key, answer);
  return answer;
}
