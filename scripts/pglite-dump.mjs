// `node scripts/pglite-dump.mjs <DATA_DIR>/pglite > inboxpulse.sql`: writes the data of an InboxPulse
// installation from before the embedded PostgreSQL (its PGlite folder) to stdout as plain SQL, which
// `npm run db:restore -- inboxpulse.sql` loads into this version (docs/upgrading-from-pglite.md).
//
// This version no longer depends on PGlite, and the old checkout need not be around: on first use the
// script installs the PGlite that wrote the folder (the one every PGlite release of InboxPulse locked)
// and @electric-sql/pglite-tools (pg_dump compiled to WASM) from the npm registry into a private cache
// folder (node_modules/.cache/inboxpulse-pglite-dump unless --cache), with their integrity hashes
// pinned, and runs them from there.
//
// The folder itself is never written: PGlite opens a copy in the temp folder (opening replays the
// write-ahead log and checkpoints on close), so the original stays as it was, whatever happens.
//
// What is dumped is what the app owns and needs: the `public` schema (tables and rows) and drizzle's
// migration bookkeeping (`drizzle.__drizzle_migrations`), so the restored database counts as migrated
// up to the old version's last migration. pg-boss's schema (`pgboss`, the queued jobs) is left out:
// pg-boss creates it again, and mail that was not sent yet is still in the outbox table.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

/**
 * The PGlite release that wrote every InboxPulse PGlite folder (package-lock.json up to commit
 * 0d57bb9), and the pglite-tools release whose pg_dump runs against it. pglite-tools declares a peer
 * dependency on PGlite 0.5.8 exactly; its pg_dump only speaks the wire protocol (execProtocolRawStream),
 * which 0.5.16 keeps, so the peer range is relaxed with --legacy-peer-deps.
 */
export const PGLITE = {
  name: '@electric-sql/pglite',
  version: '0.5.16',
  integrity: 'sha512-Nj8KcIsJL748W408U2N8q4+9IlONdpRIU8MJypIAAINMJ5nqKyqpX7Mgg/5XKkXiAib3AoZGR6hnJFlrlLBrcg==',
};
export const PGLITE_TOOLS = {
  name: '@electric-sql/pglite-tools',
  version: '0.4.8',
  integrity: 'sha512-WjgS8US6xfuE0wLYn5m9WrZ/+8dQWoQuQSRkpe7eYcxxx1UjZjvq30rpYSHfGrGtTke/zNiCd9ijVGeRUD8ukg==',
};
/** PGlite 0.5.x is PostgreSQL 18: its folders say so in PG_VERSION. */
const PG_MAJOR = '18';

/**
 * Only the app's schemas. Plain INSERTs with column names (no COPY ... FROM stdin): the restore, or
 * psql, runs the file as ordinary SQL statements. No owners or privileges: the roles of PGlite
 * (postgres) mean nothing on the new server.
 */
export const PG_DUMP_ARGS = [
  '--schema=public',
  '--schema=drizzle',
  '--no-owner',
  '--no-privileges',
  '--column-inserts',
  '--rows-per-insert=100',
];

const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** A problem the user can fix; the CLI prints the message alone and exits 1. */
export class DumpError extends Error {}

/**
 * @typedef {{ rows: Record<string, unknown>[] }} QueryResult
 * @typedef {{
 *   waitReady: Promise<void>;
 *   query(sql: string, params?: unknown[]): Promise<QueryResult>;
 *   close(): Promise<void>;
 * }} PGliteInstance
 * @typedef {{ PGlite: new (dataDir: string) => PGliteInstance }} PGliteModule
 * @typedef {{ pgDump(options: { pg: PGliteInstance; args?: string[] }): Promise<Blob> }} PgDumpModule
 */

/**
 * The PGlite folder named on the command line: DATA_DIR/pglite, or DATA_DIR itself when it holds one.
 * @param {string} given
 * @returns {string}
 */
export function pgliteFolder(given) {
  const folder = path.resolve(given);
  if (existsSync(path.join(folder, 'PG_VERSION'))) return folder;
  if (existsSync(path.join(folder, 'pglite', 'PG_VERSION'))) return path.join(folder, 'pglite');
  throw new DumpError(
    `${folder} is not a PGlite database folder (there is no PG_VERSION in it). Give the folder DATA_DIR/pglite of the old installation.`,
  );
}

/**
 * @param {string} folder
 */
function checkFolder(folder) {
  const major = readFileSync(path.join(folder, 'PG_VERSION'), 'utf8').trim();
  if (major !== PG_MAJOR) {
    throw new DumpError(
      `${folder} was written by PostgreSQL ${major}; InboxPulse's PGlite (${PGLITE.version}) is PostgreSQL ${PG_MAJOR}. This is not a folder InboxPulse wrote.`,
    );
  }
  // The old app kept a pid file beside the folder while it ran: a copy taken under a running database
  // could miss what it has not written yet.
  const pidFile = path.join(path.dirname(folder), 'pglite.pid');
  if (existsSync(pidFile)) {
    const pid = Number(readFileSync(pidFile, 'utf8'));
    if (pid > 0 && isRunning(pid)) {
      throw new DumpError(
        `The old InboxPulse (pid ${pid}) is still running on ${folder} (${pidFile}). Stop it first, then dump.`,
      );
    }
  }
}

/**
 * @param {number} pid
 */
function isRunning(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return /** @type {NodeJS.ErrnoException} */ (error).code === 'EPERM';
  }
}

/**
 * Installs the two packages into `cache` once (npm ci on a lockfile written here, so the registry's
 * tarballs must match the pinned integrity hashes), then imports them from there.
 * @param {string} cache
 * @param {(line: string) => void} say
 * @returns {Promise<{ PGlite: PGliteModule['PGlite']; pgDump: PgDumpModule['pgDump'] }>}
 */
export async function loadTools(cache, say) {
  if (!isInstalled(cache)) {
    say(
      `Installing ${PGLITE.name}@${PGLITE.version} and ${PGLITE_TOOLS.name}@${PGLITE_TOOLS.version} into ${cache} (once)…`,
    );
    mkdirSync(cache, { recursive: true });
    writeFileSync(path.join(cache, 'package.json'), JSON.stringify(manifest(), null, 2) + '\n');
    writeFileSync(path.join(cache, 'package-lock.json'), JSON.stringify(lockfile(), null, 2) + '\n');
    const npm = spawnSync(
      'npm',
      [
        'ci',
        '--prefix',
        cache,
        '--legacy-peer-deps',
        '--ignore-scripts',
        '--no-audit',
        '--no-fund',
        '--loglevel=error',
      ],
      {
        // npm's own output goes to stderr: stdout is the dump.
        stdio: ['ignore', 2, 2],
        shell: process.platform === 'win32',
      },
    );
    if (npm.error || npm.status !== 0 || !isInstalled(cache)) {
      throw new DumpError(
        `Could not install ${PGLITE.name}@${PGLITE.version} and ${PGLITE_TOOLS.name}@${PGLITE_TOOLS.version} with npm into ${cache}` +
          `${npm.error ? ` (${npm.error.message})` : ''}. The npm registry must be reachable once; then the cache is reused.`,
      );
    }
  }
  const pglite = /** @type {PGliteModule} */ (await import(entryPoint(cache, PGLITE.name, '.')));
  const tools = /** @type {PgDumpModule} */ (await import(entryPoint(cache, PGLITE_TOOLS.name, './pg_dump')));
  return { PGlite: pglite.PGlite, pgDump: tools.pgDump };
}

/**
 * @param {string} cache
 */
function isInstalled(cache) {
  return [PGLITE, PGLITE_TOOLS].every((pkg) => {
    const file = path.join(cache, 'node_modules', pkg.name, 'package.json');
    return existsSync(file) && JSON.parse(readFileSync(file, 'utf8')).version === pkg.version;
  });
}

function manifest() {
  return {
    name: 'inboxpulse-pglite-dump',
    private: true,
    description: 'Installed by scripts/pglite-dump.mjs; safe to delete.',
    dependencies: { [PGLITE.name]: PGLITE.version, [PGLITE_TOOLS.name]: PGLITE_TOOLS.version },
  };
}

function lockfile() {
  /** @param {{ name: string; version: string; integrity: string }} pkg */
  const entry = (pkg) => ({
    version: pkg.version,
    resolved: `https://registry.npmjs.org/${pkg.name}/-/${pkg.name.split('/')[1]}-${pkg.version}.tgz`,
    integrity: pkg.integrity,
    license: 'Apache-2.0',
  });
  return {
    name: 'inboxpulse-pglite-dump',
    lockfileVersion: 3,
    requires: true,
    packages: {
      '': { name: 'inboxpulse-pglite-dump', dependencies: manifest().dependencies },
      [`node_modules/${PGLITE.name}`]: entry(PGLITE),
      [`node_modules/${PGLITE_TOOLS.name}`]: { ...entry(PGLITE_TOOLS), peerDependencies: { [PGLITE.name]: '0.5.8' } },
    },
  };
}

/**
 * The ESM file a package exports under `subpath` (the cache is not on this script's resolution path).
 * @param {string} cache
 * @param {string} name
 * @param {string} subpath
 */
function entryPoint(cache, name, subpath) {
  const root = path.join(cache, 'node_modules', name);
  const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
  const target = pkg.exports?.[subpath]?.import?.default;
  if (typeof target !== 'string')
    throw new DumpError(`${name} in ${cache} has no ES module export ${subpath}; delete ${cache} and run again.`);
  return pathToFileURL(path.join(root, target)).href;
}

/**
 * pg_dump's plain output, made to load into any empty PostgreSQL 15 or later with plain SQL:
 * - `CREATE SCHEMA public` (and its comment) are dropped: every database has that schema, and
 *   pg_dump writes them only because the schema was named;
 * - `SET transaction_timeout` is dropped: PostgreSQL 17 added it, and 15 and 16 refuse the file.
 * Only the header, before the first table, is touched: row data is left exactly as dumped.
 * @param {string} dump
 * @param {{ source: string; date: Date }} about
 */
export function adaptDump(dump, about) {
  const firstTable = dump.search(/^CREATE TABLE /m);
  const headerEnd = firstTable === -1 ? dump.length : firstTable;
  let header = dump.slice(0, headerEnd);
  const body = dump.slice(headerEnd);
  header = header
    .replace(/^SET transaction_timeout = 0;\n/m, '')
    .replace(/^--\n-- Name: public; Type: SCHEMA;.*\n--\n\nCREATE SCHEMA public;\n\n\n/m, '')
    .replace(
      /^--\n-- Name: SCHEMA public; Type: COMMENT;.*\n--\n\nCOMMENT ON SCHEMA public IS 'standard public schema';\n\n\n/m,
      '',
    );
  const intro = [
    '--',
    `-- InboxPulse data from ${about.source}, dumped ${about.date.toISOString()} by scripts/pglite-dump.mjs`,
    `-- (PGlite ${PGLITE.version}, pg_dump of ${PGLITE_TOOLS.name} ${PGLITE_TOOLS.version}: ${PG_DUMP_ARGS.join(' ')}).`,
    '-- Schemas public and drizzle only; the job queue (pgboss) is left out.',
    '-- Restore it with: npm run db:restore -- <this file>   (docs/upgrading-from-pglite.md)',
    '--',
    '',
    '',
  ].join('\n');
  return intro + header + body;
}

/**
 * @param {PGliteInstance} pg
 * @param {string} schema
 * @returns {Promise<{ table: string; rows: number }[]>}
 */
async function rowCounts(pg, schema) {
  const { rows } = await pg.query(`SELECT tablename FROM pg_tables WHERE schemaname = $1 ORDER BY tablename`, [schema]);
  const counts = [];
  for (const { tablename } of rows) {
    const name = String(tablename);
    const result = await pg.query(`SELECT count(*)::int AS n FROM "${schema}"."${name.replace(/"/g, '""')}"`);
    counts.push({ table: schema === 'public' ? name : `${schema}.${name}`, rows: Number(result.rows[0].n) });
  }
  return counts;
}

/**
 * Dumps the PGlite folder and returns the SQL text.
 * @param {{ folder: string; cache: string; say: (line: string) => void }} options
 */
export async function dumpPglite({ folder, cache, say }) {
  checkFolder(folder);
  const { PGlite, pgDump } = await loadTools(cache, say);
  const copy = mkdtempSync(path.join(tmpdir(), 'inboxpulse-pglite-dump-'));
  try {
    const workFolder = path.join(copy, 'pglite');
    cpSync(folder, workFolder, { recursive: true });
    say(`Opening a copy of ${folder} with PGlite ${PGLITE.version}…`);
    const pg = new PGlite(workFolder);
    try {
      await pg.waitReady;
      const { rows } = await pg.query(
        `SELECT to_regclass('public.users') IS NOT NULL AS users, to_regclass('drizzle.__drizzle_migrations') IS NOT NULL AS migrations`,
      );
      if (!rows[0].users || !rows[0].migrations) {
        throw new DumpError(
          `${folder} is a PGlite database, but not InboxPulse's: it has no ${rows[0].users ? 'drizzle.__drizzle_migrations' : 'users'} table.`,
        );
      }
      const tables = await rowCounts(pg, 'public');
      const migrations = await rowCounts(pg, 'drizzle');
      const { rows: jobs } = await pg.query(
        `SELECT CASE WHEN to_regclass('pgboss.job') IS NULL THEN 0 ELSE (SELECT count(*)::int FROM pgboss.job WHERE state IN ('created', 'retry', 'active')) END AS n`,
      );
      const dump = await pgDump({ pg, args: PG_DUMP_ARGS });
      const sql = adaptDump(await dump.text(), { source: folder, date: new Date() });
      const width = Math.max(...[...tables, ...migrations].map((t) => t.table.length));
      say(`Dumped ${tables.length} tables of the app and its migration list (rows):`);
      for (const { table, rows: n } of [...tables, ...migrations]) say(`  ${table.padEnd(width)}  ${n}`);
      say(
        `Left out: the job queue (pgboss), ${Number(jobs[0].n)} jobs waiting. Unsent mail stays in the outbox table.`,
      );
      return sql;
    } finally {
      await pg.close().catch(() => {});
    }
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
}

async function main() {
  const usage = 'Usage: node scripts/pglite-dump.mjs <DATA_DIR>/pglite [--cache <folder>] > inboxpulse.sql';
  /** @param {string} line */
  const say = (line) => process.stderr.write(line + '\n');
  let parsed;
  try {
    parsed = parseArgs({
      allowPositionals: true,
      options: { cache: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    });
  } catch (error) {
    throw new DumpError(`${/** @type {Error} */ (error).message}\n${usage}`);
  }
  if (parsed.values.help) {
    say(usage);
    return;
  }
  if (parsed.positionals.length !== 1) throw new DumpError(usage);
  const folder = pgliteFolder(parsed.positionals[0]);
  if (process.stdout.isTTY) throw new DumpError(`The dump is written to stdout: redirect it to a file.\n${usage}`);
  const cache = path.resolve(
    parsed.values.cache ?? path.join(repositoryRoot, 'node_modules', '.cache', 'inboxpulse-pglite-dump'),
  );
  const sql = await dumpPglite({ folder, cache, say });
  await new Promise((resolve, reject) =>
    process.stdout.write(sql, (error) => (error ? reject(error) : resolve(undefined))),
  );
  say(`Next: mv ${folder} ${folder}.moved, then npm run db:restore -- <the file you wrote>.`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error) => {
    process.stderr.write(`${error instanceof DumpError ? error.message : (error?.stack ?? error)}\n`);
    process.exit(1);
  });
}
