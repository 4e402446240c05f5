import type { SQL } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import { PgDialect } from 'drizzle-orm/pg-core';
import type pg from 'pg';
import type { Database, Executor } from '../platform/db/client';
import * as schema from '../platform/db/schema/index';

/*
 * Query plans for tests that prove a query is bounded by its index. A test's tables are tiny and the planner would
 * read them whole whatever the indexes: sequential scans are switched off, so a plan shows the index the query can
 * use and what it bounds (the Index Cond), as it would on a year of data. Each runs on one connection in a
 * transaction that is rolled back.
 */

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

const planText = (rows: { 'QUERY PLAN': string }[]) => rows.map((row) => row['QUERY PLAN']).join('\n');

async function withSeqScansOff<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('begin');
    await client.query('set local enable_seqscan = off');
    return await work(client);
  } finally {
    await client.query('rollback');
    client.release();
  }
}

/** The plan of one statement. */
export async function planWithoutSeqScans(pool: pg.Pool, statement: Statement): Promise<string> {
  return withSeqScansOff(pool, async (client) =>
    planText((await client.query<{ 'QUERY PLAN': string }>(`explain ${statement.sql}`, statement.params)).rows),
  );
}

/** The plans of the queries `work` sends, as the repository functions build them: each is EXPLAINed instead of run. */
export async function queryPlans(database: Database, work: (ex: Executor) => Promise<unknown>): Promise<string[]> {
  const plans: string[] = [];
  await withSeqScansOff(database.pool, async (client) => {
    const query = client.query.bind(client) as (text: string, values?: unknown[]) => Promise<pg.QueryResult>;
    const explaining = Object.assign(Object.create(client) as pg.PoolClient, {
      // As drizzle calls it: the query's text in a config object, its parameters beside it.
      query: async (config: pg.QueryConfig, values?: unknown[]) => {
        plans.push(planText((await query(`explain ${config.text}`, values)).rows));
        return { rows: [], fields: [], command: 'SELECT', rowCount: 0, oid: 0 };
      },
    });
    await work(drizzle({ client: explaining, schema, casing: 'snake_case' }) as unknown as Executor);
  });
  return plans;
}
