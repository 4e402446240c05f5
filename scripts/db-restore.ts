// `npm run db:restore -- inboxpulse.sql [--force]`: loads a plain-SQL dump of InboxPulse's data (made
// by scripts/pglite-dump.mjs from an installation of the PGlite days, or by pg_dump with --inserts)
// into this version's database, then applies this version's newer migrations. The database is the
// embedded PostgreSQL of DATA_DIR, or DATABASE_URL when it is set. docs/upgrading-from-pglite.md
// walks through the whole move.
//
// The dump is loaded in one transaction, after the app's schemas (public, drizzle, pgboss) are
// emptied: a failure leaves the database as it was. A database that already holds accounts is only
// replaced with --force.
import { createReadStream, existsSync, readFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { openDatabase, type ConnectionSettings } from '../server/platform/db/client';
import { lockDataDir } from '../server/platform/db/data-dir-lock';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../server/platform/db/embedded-postgres';
import { oldPgliteFolder } from '../server/platform/db/pglite-data';
import { loadEnv } from '../server/platform/env';
import { createLogger } from '../server/platform/logger';

/** A problem the operator can fix; the CLI prints the message alone and exits 1. */
export class RestoreError extends Error {}

export interface SqlStatement {
  sql: string;
  /** The line of the file the statement starts on (1-based). */
  line: number;
}

/** Characters that may begin a comment, a string, a dollar quote, a psql command or end a statement. */
const TOKEN_START = /[-/\\;$'"]/g;

/**
 * Splits plain SQL into statements at top-level semicolons, reading the text as PostgreSQL does:
 * quoted strings ('...', E'...' with backslash escapes), quoted identifiers, dollar-quoted bodies,
 * -- and nested /* *\/ comments. Works on a stream of chunks, so a dump of any size is read piece by
 * piece. Comments between statements are dropped. The psql commands pg_dump 18 writes around a dump
 * (\restrict, \unrestrict) are skipped; any other psql command, and COPY ... FROM stdin (its rows are
 * not SQL), stop the restore with a message.
 */
export async function* splitSqlStatements(
  chunks: AsyncIterable<string> | Iterable<string>,
): AsyncGenerator<SqlStatement> {
  type State = 'code' | 'single' | 'escape-single' | 'double' | 'dollar' | 'line-comment' | 'block-comment' | 'meta';
  let state: State = 'code';
  let statement = '';
  let hasCode = false;
  let startLine = 0;
  let line = 1;
  let atLineStart = true;
  let blockDepth = 0;
  let dollarTag = '';
  let escaped = false;
  let meta = '';
  let carry = '';

  function finish(): SqlStatement | undefined {
    const done = hasCode ? { sql: statement, line: startLine } : undefined;
    statement = '';
    hasCode = false;
    if (done && /^\s*COPY\b[\s\S]*\bFROM\s+stdin\b/i.test(done.sql)) {
      throw new RestoreError(
        `Line ${done.line}: the dump loads rows with COPY ... FROM stdin, which this restore does not read. Make the dump with INSERT statements (pg_dump --inserts; scripts/pglite-dump.mjs does).`,
      );
    }
    return done;
  }

  async function* feed(text: string, final: boolean): AsyncGenerator<SqlStatement> {
    let i = 0;
    // Where the current statement's text starts in `text` (it is copied out when it ends or the chunk does).
    let from = 0;
    // The next line end at or after i (-1: none), kept so counting lines stays linear.
    let newline = text.indexOf('\n');
    // Moves past text[i..i+n), counting its lines.
    const take = (n: number) => {
      if (n <= 0) return;
      const end = i + n;
      if (newline !== -1 && newline < i) newline = text.indexOf('\n', i);
      while (newline !== -1 && newline < end) {
        line++;
        newline = text.indexOf('\n', newline + 1);
      }
      atLineStart = text[end - 1] === '\n';
      i = end;
    };
    const begin = () => {
      hasCode = true;
      startLine = line;
      from = i;
    };
    // The character `back` places before i in the current statement ('' before its start).
    const charBefore = (back: number) => {
      if (!hasCode) return '';
      const at = i - back;
      return (at >= from ? text[at] : statement.at(at - from)) ?? '';
    };
    // Takes the text up to and including `end` (a quote or a line end) and returns to code, or all of it.
    const takeThrough = (end: string) => {
      const at = text.indexOf(end, i);
      if (at === -1) take(text.length - i);
      else {
        take(at - i + 1);
        state = 'code';
      }
    };
    scan: while (i < text.length) {
      const ch = text[i];
      const next = text[i + 1];
      // Two-character tokens need the next character: wait for the next chunk unless this is the end.
      const needsNext =
        next === undefined &&
        !final &&
        ((state === 'code' && (ch === '-' || ch === '/')) || (state === 'block-comment' && (ch === '*' || ch === '/')));
      if (needsNext) break scan;
      switch (state) {
        case 'code': {
          if (ch === '-' && next === '-') {
            state = 'line-comment';
            take(2);
          } else if (ch === '/' && next === '*') {
            state = 'block-comment';
            blockDepth = 1;
            take(2);
          } else if (ch === '\\' && atLineStart && !hasCode) {
            state = 'meta';
            meta = '';
            i++;
            atLineStart = false;
          } else if (ch === ';') {
            i++;
            atLineStart = false;
            if (hasCode) statement += text.slice(from, i);
            const done = finish();
            if (done) yield done;
          } else if (ch === '$') {
            const match = /^\$([A-Za-z_\u0080-\uffff][A-Za-z0-9_\u0080-\uffff]*)?\$/.exec(text.slice(i, i + 66));
            const open = !match && !final && /^\$[A-Za-z0-9_\u0080-\uffff]*$/.test(text.slice(i));
            if (open) break scan; // the tag may go on in the next chunk
            if (match && !/[A-Za-z0-9_$]/.test(charBefore(1))) {
              if (!hasCode) begin();
              state = 'dollar';
              dollarTag = match[0];
              take(match[0].length);
            } else {
              if (!hasCode) begin();
              take(1);
            }
          } else if (ch === "'" || ch === '"') {
            if (!hasCode) begin();
            // E'...' (or e'...', the E a token of its own): a string with backslash escapes.
            const escapes = /^[Ee]$/.test(charBefore(1)) && !/[A-Za-z0-9_$]/.test(charBefore(2));
            state = ch === '"' ? 'double' : escapes ? 'escape-single' : 'single';
            take(1);
          } else {
            // A run of plain characters, up to the next one that may start a token.
            TOKEN_START.lastIndex = i + 1;
            const end = TOKEN_START.exec(text)?.index ?? text.length;
            if (!hasCode) {
              const firstCode = text.slice(i, end).search(/\S/);
              if (firstCode !== -1) {
                take(firstCode);
                begin();
              }
            }
            take(end - i);
          }
          break;
        }
        case 'single':
          // '' inside a string closes and reopens it: the same statement text either way.
          takeThrough("'");
          break;
        case 'escape-single':
          if (escaped) escaped = false;
          else if (ch === '\\') escaped = true;
          else if (ch === "'") state = 'code';
          take(1);
          break;
        case 'double':
          takeThrough('"');
          break;
        case 'dollar': {
          const end = text.indexOf(dollarTag, i);
          if (end === -1) {
            // Keep the last characters: the closing tag may be split across chunks.
            const keep = final ? 0 : Math.min(dollarTag.length - 1, text.length - i);
            take(text.length - i - keep);
            if (keep) break scan;
          } else {
            take(end + dollarTag.length - i);
            state = 'code';
          }
          break;
        }
        case 'line-comment':
          takeThrough('\n');
          break;
        case 'block-comment':
          if (ch === '*' && next === '/') {
            take(2);
            if (--blockDepth === 0) state = 'code';
          } else if (ch === '/' && next === '*') {
            take(2);
            blockDepth++;
          } else take(1);
          break;
        case 'meta': {
          const end = text.indexOf('\n', i);
          meta += text.slice(i, end === -1 ? text.length : end);
          if (end === -1) {
            i = text.length;
            break;
          }
          i = end;
          state = 'code';
          const command = meta.trim().split(/\s+/)[0];
          if (command !== 'restrict' && command !== 'unrestrict') {
            throw new RestoreError(
              `Line ${line}: \\${command} is a psql command, not SQL; this restore reads plain SQL statements only (the dump of scripts/pglite-dump.mjs).`,
            );
          }
          break;
        }
      }
    }
    if (hasCode) statement += text.slice(from, i);
    carry = text.slice(i);
  }

  for await (const chunk of chunks) {
    yield* feed(carry + chunk, false);
  }
  yield* feed(carry, true);
  if (state !== 'code' && state !== 'line-comment' && state !== 'meta') {
    throw new RestoreError(
      `The dump ends inside ${state === 'block-comment' ? 'a comment' : 'a quoted string'} that starts before line ${line}: the file is cut short.`,
    );
  }
  const last = finish();
  if (last) yield last;
}

// ---- the restore ---------------------------------------------------------------------------------

export interface RestoreOptions {
  /** The dump: plain SQL with INSERT statements. */
  file: string;
  /** The database to restore into. */
  connection: ConnectionSettings;
  /** Replace a database that already holds accounts. */
  force?: boolean;
  /** Progress lines for a person. */
  say?: (line: string) => void;
}

export interface RestoreSummary {
  /** Rows per table of the public schema after the migrations, by table name. */
  tables: Record<string, number>;
  /** Migrations (by tag) the dump brought, and the ones applied after it. */
  migrations: { restored: string[]; applied: string[] };
  statements: number;
}

const journalFile = fileURLToPath(new URL('../server/platform/db/migrations/meta/_journal.json', import.meta.url));

/** Migration tags by their `when` (drizzle keeps it as created_at of each applied migration). */
function migrationTags(): Map<number, string> {
  const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as { entries: { when: number; tag: string }[] };
  return new Map(journal.entries.map((e) => [e.when, e.tag]));
}

async function appliedMigrations(client: pg.ClientBase | pg.Pool): Promise<string[]> {
  const { rows } = await client.query<{ exists: boolean }>(
    `SELECT to_regclass('drizzle.__drizzle_migrations') IS NOT NULL AS exists`,
  );
  if (!rows[0].exists) return [];
  const tags = migrationTags();
  const applied = await client.query<{ created_at: string }>(
    'SELECT created_at FROM drizzle.__drizzle_migrations ORDER BY id',
  );
  return applied.rows.map(
    (r) => tags.get(Number(r.created_at)) ?? `unknown migration of ${new Date(Number(r.created_at)).toISOString()}`,
  );
}

/** Refuses a file that is not a plain-SQL pg_dump before anything is touched. */
async function checkDumpFile(file: string): Promise<void> {
  if (!existsSync(file)) throw new RestoreError(`${file} does not exist.`);
  const handle = await open(file, 'r');
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(4096), 0, 4096, 0);
    const head = buffer.subarray(0, bytesRead).toString('utf8');
    if (head.startsWith('PGDMP')) {
      throw new RestoreError(
        `${file} is a pg_dump archive (custom format); this restore reads plain SQL. Dump with scripts/pglite-dump.mjs, or pg_dump --format=plain --inserts.`,
      );
    }
    if (!head.includes('PostgreSQL database dump')) {
      throw new RestoreError(
        `${file} does not look like a plain-SQL dump of PostgreSQL (no "PostgreSQL database dump" header). Dump with scripts/pglite-dump.mjs.`,
      );
    }
  } finally {
    await handle.close();
  }
}

/** What the target database holds now: accounts, and whether its tables are InboxPulse's. */
async function inspectTarget(client: pg.Client) {
  const { rows } = await client.query<{
    users: boolean;
    migrations: boolean;
    relations: number;
    others: { pid: number; app: string }[];
  }>(`
    SELECT to_regclass('public.users') IS NOT NULL AS users,
           to_regclass('drizzle.__drizzle_migrations') IS NOT NULL AS migrations,
           (SELECT count(*)::int FROM pg_class WHERE relnamespace = 'public'::regnamespace) AS relations,
           (SELECT coalesce(json_agg(json_build_object('pid', pid, 'app', application_name)), '[]')
              FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend') AS others`);
  const state = rows[0];
  const accounts = state.users
    ? Number((await client.query<{ n: string }>('SELECT count(*) AS n FROM public.users')).rows[0].n)
    : 0;
  return { ...state, accounts };
}

/** Restores the dump into `connection`'s database in one transaction, then runs this version's migrations. */
export async function restoreDump(options: RestoreOptions): Promise<RestoreSummary> {
  const say = options.say ?? (() => {});
  await checkDumpFile(options.file);
  const client = new pg.Client(options.connection);
  await client.connect();
  let statements = 0;
  let restored: string[];
  try {
    const target = await inspectTarget(client);
    if (target.others.length) {
      throw new RestoreError(
        `${target.others.length} other connection(s) use this database (${target.others.map((o) => `pid ${o.pid}${o.app ? ` ${o.app}` : ''}`).join(', ')}). Stop InboxPulse (every process) before restoring.`,
      );
    }
    if (target.accounts > 0 && !options.force) {
      throw new RestoreError(
        `The database already holds InboxPulse data (${target.accounts} account${target.accounts === 1 ? '' : 's'}). Restoring replaces all of it: run again with --force to do so, or restore into an empty DATA_DIR or database.`,
      );
    }
    if (target.relations > 0 && !target.migrations && !options.force) {
      throw new RestoreError(
        `The database has tables in its public schema that are not InboxPulse's (no drizzle.__drizzle_migrations). Restore into an empty database, or run again with --force to drop them.`,
      );
    }

    await client.query('BEGIN');
    try {
      if (target.relations > 0 || target.migrations || (await schemaExists(client, 'pgboss'))) {
        say('Emptying the database first (its tables and job queue are replaced by the dump)…');
        await client.query(`
          DROP SCHEMA IF EXISTS drizzle CASCADE;
          DROP SCHEMA IF EXISTS pgboss CASCADE;
          DROP SCHEMA public CASCADE;
          CREATE SCHEMA public;
          GRANT USAGE ON SCHEMA public TO PUBLIC;
          -- The owner a new database's public schema has (PostgreSQL 15 and later), where this role may give it.
          DO $$ BEGIN ALTER SCHEMA public OWNER TO pg_database_owner; EXCEPTION WHEN insufficient_privilege THEN NULL; END $$;`);
      }
      say(`Restoring ${options.file}…`);
      const stream = createReadStream(options.file, { encoding: 'utf8', highWaterMark: 1 << 20 });
      for await (const statement of splitSqlStatements(stream as AsyncIterable<string>)) {
        try {
          await client.query(statement.sql);
        } catch (error) {
          const text = statement.sql.trim();
          throw new RestoreError(
            `Line ${statement.line} of ${options.file}: ${(error as Error).message}\n  ${text.length > 200 ? `${text.slice(0, 200)}…` : text}\nNothing was restored.`,
          );
        }
        statements++;
      }
      const check = await inspectTarget(client);
      if (!check.users || !check.migrations) {
        throw new RestoreError(
          `${options.file} does not hold InboxPulse's tables (public.users and drizzle.__drizzle_migrations). Nothing was restored.`,
        );
      }
      restored = await appliedMigrations(client);
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    }
  } finally {
    await client.end();
  }

  say(`Restored ${statements} statements; applying this version's migrations…`);
  const database = await openDatabase(options.connection, 2);
  try {
    await database.migrate();
    const all = await appliedMigrations(database.pool);
    const { rows } = await database.pool.query<{ tablename: string }>(
      `SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename`,
    );
    const tables: Record<string, number> = {};
    for (const { tablename } of rows) {
      const result = await database.pool.query<{ n: string }>(
        `SELECT count(*) AS n FROM public."${tablename.replace(/"/g, '""')}"`,
      );
      tables[tablename] = Number(result.rows[0].n);
    }
    return { tables, migrations: { restored, applied: all.slice(restored.length) }, statements };
  } finally {
    await database.close();
  }
}

async function schemaExists(client: pg.Client, name: string): Promise<boolean> {
  const { rowCount } = await client.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [name]);
  return Boolean(rowCount);
}

export function formatSummary(summary: RestoreSummary, where: string): string {
  const names = Object.keys(summary.tables);
  const width = Math.max(...names.map((n) => n.length));
  const { restored, applied } = summary.migrations;
  const lines = [
    `Restored into ${where}; rows per table:`,
    ...names.map((name) => `  ${name.padEnd(width)}  ${summary.tables[name]}`),
    `Migrations: ${restored.length} from the dump (up to ${restored.at(-1) ?? 'none'}); applied now: ${applied.length ? applied.join(', ') : 'none'}.`,
  ];
  if ((summary.tables.integrations ?? 0) > 0) {
    lines.push(
      'Integration credentials are encrypted with APP_SECRET: keep the one the old installation used (DATA_DIR/app-secret, or the APP_SECRET variable).',
    );
  }
  lines.push(
    'Start InboxPulse (npm start): accounts sign in with their old passwords. Queued jobs were not carried over; unsent mail is re-queued from the outbox.',
  );
  return lines.join('\n');
}

// ---- the command ---------------------------------------------------------------------------------

async function main(): Promise<void> {
  const usage =
    "Usage: npm run db:restore -- <dump.sql> [--force]   (into DATA_DIR's embedded PostgreSQL, or DATABASE_URL when set)";
  let parsed;
  try {
    parsed = parseArgs({
      allowPositionals: true,
      options: { force: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
    });
  } catch (error) {
    throw new RestoreError(`${(error as Error).message}\n${usage}`);
  }
  if (parsed.values.help) {
    console.log(usage);
    return;
  }
  if (parsed.positionals.length !== 1) throw new RestoreError(usage);
  const file = path.resolve(parsed.positionals[0]);
  await checkDumpFile(file);
  const env = loadEnv();
  const say = (line: string) => console.log(line);

  let server: EmbeddedPostgres | undefined;
  let unlock = () => {};
  let where = 'the database of DATABASE_URL';
  if (!env.DATABASE_URL) {
    const old = oldPgliteFolder(env.DATA_DIR);
    if (old) {
      throw new RestoreError(
        `${old} still holds the old PGlite database. Move it aside first (step 2 of docs/upgrading-from-pglite.md), then restore:\n  mv ${old} ${old}.moved`,
      );
    }
    unlock = lockDataDir(env.DATA_DIR);
    where = `the embedded PostgreSQL in ${path.resolve(env.DATA_DIR, 'postgres')}`;
    try {
      server = await startEmbeddedPostgres({
        dataDir: env.DATA_DIR,
        log: createLogger(env.LOG_LEVEL === 'info' ? 'warn' : env.LOG_LEVEL),
      });
    } catch (error) {
      unlock();
      throw error;
    }
  }
  try {
    const summary = await restoreDump({
      file,
      connection: env.DATABASE_URL ? { connectionString: env.DATABASE_URL } : server!.connection,
      force: parsed.values.force,
      say,
    });
    say(formatSummary(summary, where));
  } finally {
    await server?.stop();
    unlock();
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error: unknown) => {
    console.error(error instanceof RestoreError ? error.message : error);
    process.exit(1);
  });
}
