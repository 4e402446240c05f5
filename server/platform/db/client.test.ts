import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../test/test-database';
import type { Database } from './client';

let database: Database;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database.close());

describe('the app’s database connections', () => {
  it('never JIT-compile a statement: compiling cost the analytics seconds to save milliseconds (ADR 062)', async () => {
    const { rows } = await database.pool.query<{ jit: string }>(`select current_setting('jit') as jit`);
    expect(rows[0].jit).toBe('off');
  });
});
