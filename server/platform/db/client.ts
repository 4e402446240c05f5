import { drizzle, type NodePgQueryResultHKT } from 'drizzle-orm/node-postgres';
import { migrate as migrateDrizzle } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { fileURLToPath } from 'node:url';
import * as schema from './schema/index';

export type Schema = typeof schema;
/** node-postgres results: `db.execute<Row>(sql`...`)` answers a typed `{ rows: Row[], rowCount }`. */
export type Db = PgDatabase<NodePgQueryResultHKT, Schema>;
/** A transaction handle; repos take `Db | Tx` so a service can group writes. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type Executor = Db | Tx;

/** Where a server is: a DATABASE_URL, or the embedded server's socket and generated password. */
export type ConnectionSettings = Pick<pg.ClientConfig, 'connectionString' | 'host' | 'port' | 'user' | 'database'> & {
  password?: string;
};

/** The app's database: drizzle for the code, the pool for plain SQL, and what other clients (pg-boss, LISTEN) connect with. */
export interface Database {
  db: Db;
  pool: pg.Pool;
  connection: ConnectionSettings;
  migrate(): Promise<void>;
  close(): Promise<void>;
}

/** The oldest server the migrations and queries are written for (Debian 12 ships 15). */
export const MIN_SERVER_VERSION = 150000;

const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));
// Any fixed number: every process that migrates takes this lock first, so only one migrates at a time.
const MIGRATION_LOCK_ID = 8_042_213;

/** Opens a pool on a PostgreSQL server (a DATABASE_URL, or the embedded server's socket) and checks its version. */
export async function openDatabase(target: string | ConnectionSettings, maxConnections = 10): Promise<Database> {
  const connection: ConnectionSettings = typeof target === 'string' ? { connectionString: target } : target;
  // No JIT compilation: PostgreSQL compiles any statement it prices above jit_above_cost, and the analytics' queries
  // (priced high for their JSON functions) then spent seconds compiling to save milliseconds (issue 39, ADR 062).
  const pool = new pg.Pool({ ...connection, max: maxConnections, options: '-c jit=off' });
  // A dropped idle connection must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  try {
    const { rows } = await pool.query<{ v: string; text: string }>(
      `SELECT current_setting('server_version_num') AS v, current_setting('server_version') AS text`,
    );
    if (Number(rows[0].v) < MIN_SERVER_VERSION)
      throw new Error(`InboxPulse needs PostgreSQL 15 or later; the server runs ${rows[0].text}.`);
  } catch (error) {
    await pool.end();
    throw error;
  }
  const db = drizzle({ client: pool, schema, casing: 'snake_case' }) as unknown as Db;
  return {
    db,
    pool,
    connection,
    migrate: () =>
      oneProcessAtATime(pool, MIGRATION_LOCK_ID, (conn) =>
        migrateDrizzle(drizzle({ client: conn, casing: 'snake_case' }), { migrationsFolder }),
      ),
    close: () => pool.end(),
  };
}

/**
 * Runs `work` while this process holds the session advisory lock `lockId`: processes that start together (ROLES split
 * over several) take turns at setting up what they share, which concurrent DDL would deadlock on.
 */
export async function oneProcessAtATime<T>(
  pool: pg.Pool,
  lockId: number,
  work: (conn: pg.PoolClient) => Promise<T>,
): Promise<T> {
  const conn = await pool.connect();
  try {
    await conn.query('SELECT pg_advisory_lock($1)', [lockId]);
    return await work(conn);
  } finally {
    await conn.query('SELECT pg_advisory_unlock($1)', [lockId]).catch(() => {});
    conn.release();
  }
}
