import { drizzle } from 'drizzle-orm/node-postgres';
import type pg from 'pg';
import type { Database, Executor } from '../platform/db/client';
import * as schema from '../platform/db/schema/index';

/**
 * The plans of the queries `work` sends, as the repository functions build them: each is EXPLAINed instead of run
 * (answering no rows), on one connection in a transaction that is rolled back. A test's tables are tiny and the
 * planner would read them whole whatever the indexes: sequential scans are switched off, so a plan shows the index
 * the query can use and what it bounds (the Index Cond), as it would on a year of data.
 */
export async function queryPlans(database: Database, work: (ex: Executor) => Promise<unknown>): Promise<string[]> {
  const client = await database.pool.connect();
  const plans: string[] = [];
  const query = client.query.bind(client) as (text: string, values?: unknown[]) => Promise<pg.QueryResult>;
  try {
    await client.query('begin');
    await client.query('set local enable_seqscan = off');
    const explaining = Object.assign(Object.create(client) as pg.PoolClient, {
      // As drizzle calls it: the query's text in a config object, its parameters beside it.
      query: async (config: pg.QueryConfig, values?: unknown[]) => {
        const { rows } = await query(`explain ${config.text}`, values);
        plans.push(rows.map((row: { 'QUERY PLAN': string }) => row['QUERY PLAN']).join('\n'));
        return { rows: [], fields: [], command: 'SELECT', rowCount: 0, oid: 0 };
      },
    });
    await work(drizzle({ client: explaining, schema, casing: 'snake_case' }) as unknown as Executor);
  } finally {
    await client.query('rollback');
    client.release();
  }
  return plans;
}
