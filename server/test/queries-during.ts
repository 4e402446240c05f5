import type pg from 'pg';
import { vi } from 'vitest';

/** How many queries `action` sends through `pool`: what a test of "no query per request" counts. */
export async function queriesDuring(pool: pg.Pool, action: () => Promise<unknown>): Promise<number> {
  const spy = vi.spyOn(pool, 'query');
  try {
    await action();
    return spy.mock.calls.length;
  } finally {
    spy.mockRestore();
  }
}
