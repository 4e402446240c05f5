import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { openDatabase, type ConnectionSettings, type Database } from '../platform/db/client';

/** What the server suite's global setup hands every test file (test-postgres.ts). */
export interface TestDatabaseServer {
  /** Connection settings of the server, on its maintenance database. */
  connection: ConnectionSettings;
  /** A database migrated once per run, with the job queue's schema and queues: every test database is a copy of it. */
  template: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    testDatabase: TestDatabaseServer;
  }
}

/** The same server settings on another database of it. */
export function onDatabase(connection: ConnectionSettings, database: string): ConnectionSettings {
  if (!connection.connectionString) return { ...connection, database };
  const url = new URL(connection.connectionString);
  url.pathname = `/${database}`;
  return { ...connection, connectionString: url.toString() };
}

export async function adminQuery(connection: ConnectionSettings, text: string): Promise<void> {
  const client = new pg.Client(connection);
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/**
 * A fresh database for one test app: a copy of the run's migrated template, made by copying its
 * files (FILE_COPY: faster than WAL-logging every page of a 10 MB template; bench:test-app). Closing
 * it closes the pool but leaves the database: a DROP DATABASE makes the next CREATE DATABASE take
 * several times as long (about 450 ms instead of 150), so the copies are dropped together when the
 * run ends (dropTestDatabases), or go with the embedded server's folder.
 */
export async function openTestDatabase(server: TestDatabaseServer = inject('testDatabase')): Promise<Database> {
  const name = `${server.template}_${randomBytes(6).toString('hex')}`;
  await adminQuery(server.connection, `CREATE DATABASE ${name} TEMPLATE ${server.template} STRATEGY FILE_COPY`);
  const database = await openDatabase(onDatabase(server.connection, name), 5);
  // Already migrated: the template was.
  return { ...database, migrate: async () => {} };
}

/** Drops the template and every copy of it made in this run. */
export async function dropTestDatabases(server: TestDatabaseServer): Promise<void> {
  const client = new pg.Client(server.connection);
  await client.connect();
  try {
    const { rows } = await client.query<{ datname: string }>(
      `SELECT datname FROM pg_database WHERE datname = $1 OR starts_with(datname, $1 || '_')`,
      [server.template],
    );
    for (const { datname } of rows)
      await client.query(`DROP DATABASE IF EXISTS ${client.escapeIdentifier(datname)} WITH (FORCE)`);
  } finally {
    await client.end();
  }
}
