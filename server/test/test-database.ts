import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { openDatabase, type ConnectionSettings, type Database } from '../db/client';

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

/** A fresh database for one test app: a copy of the run's migrated template, dropped again on close. */
export async function openTestDatabase(server: TestDatabaseServer = inject('testDatabase')): Promise<Database> {
  const name = `inboxpulse_test_${randomBytes(6).toString('hex')}`;
  await adminQuery(server.connection, `CREATE DATABASE ${name} TEMPLATE ${server.template}`);
  const database = await openDatabase(onDatabase(server.connection, name), 5);
  return {
    ...database,
    // Already migrated: the template was.
    migrate: async () => {},
    async close() {
      await database.close();
      await adminQuery(server.connection, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}
