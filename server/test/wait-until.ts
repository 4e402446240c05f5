import { inspect } from 'node:util';

/*
 * The one way a test waits for work it does not control (a job, a worker, a socket on the other
 * side): poll the state it is about to assert until it is there, never sleep a fixed time. A slow
 * machine then makes a test slower, not red; a state that never comes fails with what was seen.
 */

export interface WaitOptions {
  /** Give up after this long; the default stays well inside the suite's 30 s test timeout. */
  timeoutMs?: number;
  /** Pause between two probes. */
  intervalMs?: number;
}

type Probe<T> = () => T | Promise<T>;

/**
 * Polls `probe` until it yields a value, and returns that value. Without `until`, a value is
 * anything but `undefined`, `null` or `false`; with `until`, the value read is returned once
 * `until(value)` holds, and the last one read is shown if it never does. A probe that throws ends
 * the wait at once with its error, so a probe can fail fast on a state that will never come right.
 *
 * @param what what is awaited, for the error: "timed out waiting for <what>"
 */
export function waitUntil<T>(
  probe: Probe<T>,
  what: string,
  options: WaitOptions & { until: (value: T) => boolean },
): Promise<T>;
export function waitUntil<T>(
  probe: Probe<T | undefined | null | false>,
  what: string,
  options?: WaitOptions,
): Promise<T>;
export async function waitUntil<T>(
  probe: Probe<T | undefined | null | false>,
  what: string,
  {
    timeoutMs = 15_000,
    intervalMs = 50,
    until,
  }: WaitOptions & { until?: (value: T | undefined | null | false) => boolean } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (until ? until(value) : value !== undefined && value !== null && value !== false) return value as T;
    const left = deadline - Date.now();
    // One more probe after the deadline would only repeat this one: give up with what it saw.
    if (left <= 0) throw new Error(`timed out waiting for ${what} after ${timeoutMs} ms; last seen: ${shown(value)}`);
    await new Promise((resolve) => setTimeout(resolve, Math.min(intervalMs, left)));
  }
}

function shown(value: unknown): string {
  const text = inspect(value, { depth: 4, maxArrayLength: 20, maxStringLength: 200, breakLength: Infinity });
  return text.length > 1000 ? `${text.slice(0, 1000)}...` : text;
}
