import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Env } from '../env';
import { createLogger } from '../logger';
import type { ConnectionSettings } from './client';
import { lockDataDir } from './data-dir-lock';
import { startEmbeddedPostgres } from './embedded-postgres';

/** The running embedded server's connection, as embedded-postgres.ts lays it out in DATA_DIR. */
export function embeddedConnection(dataDir: string): ConnectionSettings {
  const host = path.join(dataDir, 'postgres-run');
  if (!existsSync(path.join(host, '.s.PGSQL.5432'))) throw new Error(`no PostgreSQL socket in ${host}`);
  const password = readFileSync(path.join(dataDir, 'postgres-password'), 'utf8').trim();
  return { host, port: 5432, user: 'inboxpulse', password, database: 'inboxpulse' };
}

/**
 * This installation's database for an operator's command: DATABASE_URL; or the embedded server the
 * running app holds (through its socket); or, with the app stopped, the embedded server started for
 * the command and stopped by `close`.
 */
export async function openInstallationDatabase(
  env: Env,
): Promise<{ connection: ConnectionSettings; close(): Promise<void> }> {
  if (env.DATABASE_URL) return { connection: { connectionString: env.DATABASE_URL }, close: async () => {} };
  let unlock: () => void;
  try {
    unlock = lockDataDir(env.DATA_DIR);
  } catch {
    // The app runs and holds the embedded server: use it.
    return { connection: embeddedConnection(env.DATA_DIR), close: async () => {} };
  }
  try {
    const server = await startEmbeddedPostgres({ dataDir: env.DATA_DIR, log: createLogger('warn') });
    return {
      connection: server.connection,
      async close() {
        await server.stop();
        unlock();
      },
    };
  } catch (error) {
    unlock();
    throw error;
  }
}
