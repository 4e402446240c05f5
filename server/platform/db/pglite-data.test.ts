import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { loadEnv } from '../env';
import { startRuntime } from '../../runtime';
import { startEmbeddedPostgres } from './embedded-postgres';
import { oldPgliteFolder, refuseOldPgliteData } from './pglite-data';

/*
 * A DATA_DIR of the PGlite days must stop start-up before anything is created beside the old data,
 * with the steps that move it; and those steps must name things that exist.
 */

const repositoryRoot = fileURLToPath(new URL('../../..', import.meta.url));
const folders: string[] = [];
afterAll(async () => {
  for (const dir of folders) await rm(dir, { recursive: true, force: true });
});

/** A DATA_DIR as an earlier InboxPulse left it: app-secret and a PGlite cluster folder. */
function oldDataDir(): string {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'inboxpulse-pglite-'));
  folders.push(dataDir);
  mkdirSync(path.join(dataDir, 'pglite', 'base'), { recursive: true });
  writeFileSync(path.join(dataDir, 'pglite', 'PG_VERSION'), '18\n');
  writeFileSync(path.join(dataDir, 'app-secret'), 'an-old-secret-an-old-secret-an-old-secret\n');
  return dataDir;
}

function expectTheSteps(message: string, dataDir: string) {
  const old = path.join(dataDir, 'pglite');
  expect(message).toContain(`${old} holds the database of an earlier InboxPulse (PGlite)`);
  expect(message).toContain(`node scripts/pglite-dump.mjs ${old} > inboxpulse.sql`);
  expect(message).toContain(`mv ${old} ${old}.moved`);
  expect(message).toContain('npm run db:restore -- inboxpulse.sql');
  expect(message).toContain('docs/upgrading-from-pglite.md');
}

describe('a DATA_DIR that still holds a PGlite database', () => {
  it('stops the embedded PostgreSQL before it creates anything, with the three steps that move the data', async () => {
    const dataDir = oldDataDir();
    const error = await startEmbeddedPostgres({ dataDir, log: pino({ level: 'silent' }) }).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(error).toBeInstanceOf(Error);
    expectTheSteps(error!.message, dataDir);
    // No cluster, password or socket folder beside the old data.
    expect(readdirSync(dataDir).sort()).toEqual(['app-secret', 'pglite']);
  });

  it('stops the whole start-up too, and leaves no pid file behind', async () => {
    const dataDir = oldDataDir();
    const env = loadEnv({ NODE_ENV: 'test', DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'silent' });
    await expect(startRuntime(env, { logger: pino({ level: 'silent' }) })).rejects.toThrow(
      /earlier InboxPulse \(PGlite\)/,
    );
    expect(readdirSync(dataDir).sort()).toEqual(['app-secret', 'pglite']);
  });

  it('is recognised by the PG_VERSION file PostgreSQL writes into every cluster, not by the folder name alone', () => {
    const dataDir = oldDataDir();
    expect(oldPgliteFolder(dataDir)).toBe(path.join(dataDir, 'pglite'));
    expect(() => refuseOldPgliteData(dataDir)).toThrow(/pglite-dump\.mjs/);

    const emptied = mkdtempSync(path.join(tmpdir(), 'inboxpulse-pglite-'));
    folders.push(emptied);
    mkdirSync(path.join(emptied, 'pglite'));
    expect(oldPgliteFolder(emptied)).toBeUndefined();
    expect(() => refuseOldPgliteData(emptied)).not.toThrow();
    // Moved aside as step 2 says: start-up goes on.
    expect(oldPgliteFolder(path.join(emptied, 'nothing-here'))).toBeUndefined();
  });

  it('points at a dump script, a restore command and a guide that exist', () => {
    expect(existsSync(path.join(repositoryRoot, 'scripts', 'pglite-dump.mjs'))).toBe(true);
    expect(existsSync(path.join(repositoryRoot, 'docs', 'upgrading-from-pglite.md'))).toBe(true);
    const { scripts } = JSON.parse(readFileSync(path.join(repositoryRoot, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    const restore = scripts['db:restore'];
    expect(restore).toMatch(/^tsx scripts\/db-restore\.ts$/);
    expect(existsSync(path.join(repositoryRoot, 'scripts', 'db-restore.ts'))).toBe(true);
  });
});
