import { existsSync } from 'node:fs';
import path from 'node:path';

/** DATA_DIR/pglite when it holds a database of an earlier InboxPulse (PGlite), else undefined. */
export function oldPgliteFolder(dataDir: string): string | undefined {
  const old = path.join(path.resolve(dataDir), 'pglite');
  return existsSync(path.join(old, 'PG_VERSION')) ? old : undefined;
}

/**
 * Versions before the embedded PostgreSQL kept their database in DATA_DIR/pglite (PGlite). This
 * version cannot read it, and starting an empty database beside it would look like lost data, so
 * start-up stops, before anything is created, and says how to move it (docs/upgrading-from-pglite.md).
 */
export function refuseOldPgliteData(dataDir: string): void {
  const old = oldPgliteFolder(dataDir);
  if (!old) return;
  throw new Error(
    [
      `${old} holds the database of an earlier InboxPulse (PGlite). This version keeps its data in an embedded PostgreSQL server and cannot read that folder, so it has not started.`,
      'To keep your data, move it (docs/upgrading-from-pglite.md has the details):',
      `  1. Dump it with the earlier version's PGlite:  node scripts/pglite-dump.mjs ${old} > inboxpulse.sql`,
      `  2. Move the old folder aside:                 mv ${old} ${old}.moved`,
      `  3. Restore the dump into this version:        npm run db:restore -- inboxpulse.sql`,
      `To start empty instead, move ${old} aside (step 2) or delete it.`,
    ].join('\n'),
  );
}
