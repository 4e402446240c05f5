// The server suite's global setup: one PostgreSQL for the whole run (the embedded server in a temp
// folder, or the server named by TEST_DATABASE_URL), and one template database migrated once, which
// every test file copies (test-database.ts). Copying is a file copy on the server: milliseconds,
// where migrating a fresh database took seconds.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../platform/db/client';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../platform/db/embedded-postgres';
import { openNotifications } from '../platform/db/notifications';
import { loadEnv } from '../platform/env';
import { createJobQueue } from '../platform/queue/queue';
import { jobRegistry } from '../job-registry';
import { adminQuery, dropTestDatabases, onDatabase, type TestDatabaseServer } from './test-database';

/** A test server keeps nothing: speed over durability. */
const TEST_SERVER_SETTINGS = {
  fsync: 'off',
  synchronous_commit: 'off',
  full_page_writes: 'off',
  max_connections: 300,
  shared_buffers: '128MB',
};

export async function startTestDatabaseServer(): Promise<TestDatabaseServer & { stop(): Promise<void> }> {
  const log = pino({ level: process.env.TEST_LOG_LEVEL ?? 'warn' });
  let embedded: EmbeddedPostgres | undefined;
  let dataDir: string | undefined;
  if (!process.env.TEST_DATABASE_URL) {
    dataDir = await mkdtemp(path.join(tmpdir(), 'inboxpulse-test-pg-'));
    embedded = await startEmbeddedPostgres({ dataDir, log, settings: TEST_SERVER_SETTINGS });
  }
  const connection = embedded
    ? onDatabase(embedded.connection, 'postgres')
    : { connectionString: process.env.TEST_DATABASE_URL };
  const template = `inboxpulse_template_${randomBytes(4).toString('hex')}`;
  await adminQuery(connection, `CREATE DATABASE ${template}`);
  const database = await openDatabase(onDatabase(connection, template), 2);
  await database.migrate();
  // The job queue's schema and queues too, so a test app's pg-boss starts without installing anything.
  const env = loadEnv({
    NODE_ENV: 'test',
    DATA_DIR: dataDir ?? tmpdir(),
    APP_SECRET: 'test-secret-test-secret-test-secret-0123',
  });
  const notifications = await openNotifications(database.connection, log);
  const jobs = createJobQueue({ database, notifications, jobs: jobRegistry, log, work: false });
  await jobs.start({
    env,
    db: database.db,
    mailer: undefined as never,
    dns: undefined as never,
    analyser: undefined as never,
    threads: undefined as never,
  });
  await jobs.stop();
  await notifications.close();
  await database.close();

  return {
    connection,
    template,
    async stop() {
      // The embedded server's databases go with its folder; a shared server's are dropped.
      if (!embedded) await dropTestDatabases({ connection, template });
      await embedded?.stop();
      if (dataDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const server = await startTestDatabaseServer();
  project.provide('testDatabase', { connection: server.connection, template: server.template });
  return () => server.stop();
}
