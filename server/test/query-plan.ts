import type pg from 'pg';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { SQL } from 'drizzle-orm';

/** A statement as drizzle sends it: a built query's `toSQL()`, or raw SQL through `sqlText`. */
export interface Statement {
  sql: string;
  params: unknown[];
}

const dialect = new PgDialect({ casing: 'snake_case' });

/** The text and parameters of raw SQL written with drizzle's `sql` template, as db.execute sends them. */
export function sqlText(query: SQL): Statement {
  return dialect.sqlToQuery(query);
}

/**
 * The plan PostgreSQL picks for `statement` when reading a table whole is its last resort. A test's tables hold a
 * few rows, which the planner would rather read whole whatever the indexes; with sequential scans priced out, the
 * plan shows which index bounds the query, as it does on the large tables of a real account.
 */
export async function planWithoutSeqScans(pool: pg.Pool, statement: Statement): Promise<string> {
  const client = await pool.connect();
  try {
    await client.query('begin');
    await client.query('set local enable_seqscan = off');
    const { rows } = await client.query<{ 'QUERY PLAN': string }>(`explain ${statement.sql}`, statement.params);
    return rows.map((row) => row['QUERY PLAN']).join('\n');
  } finally {
    await client.query('rollback');
    client.release();
  }
}
