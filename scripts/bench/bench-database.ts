import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { openDatabase, type Database } from '../../server/platform/db/client';
import { startEmbeddedPostgres } from '../../server/platform/db/embedded-postgres';

/**
 * A migrated database for a benchmark, as production runs it: the embedded PostgreSQL with its
 * production settings in a temp DATA_DIR, or the server of DATABASE_URL. Closing removes the temp folder.
 */
export async function openBenchDatabase(): Promise<Database & { label: string }> {
  if (process.env.DATABASE_URL) {
    const database = await openDatabase(process.env.DATABASE_URL);
    await database.migrate();
    return { ...database, label: 'PostgreSQL (DATABASE_URL)' };
  }
  const dataDir = mkdtempSync(path.join(tmpdir(), 'inboxpulse-bench-'));
  const server = await startEmbeddedPostgres({ dataDir, log: pino({ level: 'warn' }) });
  const database = await openDatabase(server.connection);
  await database.migrate();
  return {
    ...database,
    label: 'embedded PostgreSQL',
    async close() {
      await database.close();
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
