import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import pino from 'pino';
import { afterAll, describe, expect, inject, it } from 'vitest';
import type { ConnectionSettings } from '../server/platform/db/client';
import { loadEnv } from '../server/platform/env';
import { startRuntime } from '../server/runtime';
import { adminQuery, onDatabase } from '../server/test/test-database';
import { restoreDump, RestoreError, splitSqlStatements, type SqlStatement } from './db-restore';

/*
 * The restore half of the move from PGlite (docs/upgrading-from-pglite.md). The fixture is the real
 * output of scripts/pglite-dump.mjs on the PGlite folder of the last PGlite version (commit 0d57bb9),
 * trimmed as its first lines say: restoring it must give the old accounts and domains back, count as
 * migrated up to 0006, and leave a database this version migrates and runs on. PGlite itself is not
 * needed here (it would need the network); the round trip with it is described in the guide.
 */

const fixture = fileURLToPath(new URL('./fixtures/pglite-dump-0006.sql', import.meta.url));
const journal = JSON.parse(
  readFileSync(fileURLToPath(new URL('../server/platform/db/migrations/meta/_journal.json', import.meta.url)), 'utf8'),
) as {
  entries: { tag: string }[];
};
const allTags = journal.entries.map((e) => e.tag);
const oldTags = [
  '0000_init',
  '0001_product_tables',
  '0002_domain_checks',
  '0003_dmarc_reports',
  '0004_inbound_messages',
  '0005_inbound_report_domains',
  '0006_inbox_test_flow',
];
const NOTES = `It's "quoted"; $$ dollar $$ $tag$ -- not a comment /* nor this */\nsecond line; DROP TABLE users; \\\\ backslash \\n é ✓ 📬\r\nend`;

const folders: string[] = [];
const databases: string[] = [];
const server = inject('testDatabase');
afterAll(async () => {
  for (const name of databases)
    await adminQuery(server.connection, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => {});
  for (const dir of folders) await rm(dir, { recursive: true, force: true });
});

/** An empty database on the run's server, as `CREATE DATABASE` (or a first start) leaves it. */
async function emptyDatabase(): Promise<ConnectionSettings> {
  const name = `inboxpulse_restore_${randomBytes(5).toString('hex')}`;
  databases.push(name);
  await adminQuery(server.connection, `CREATE DATABASE ${name}`);
  return onDatabase(server.connection, name);
}

async function query<T extends pg.QueryResultRow>(connection: ConnectionSettings, text: string): Promise<T[]> {
  const client = new pg.Client(connection);
  await client.connect();
  try {
    return (await client.query<T>(text)).rows;
  } finally {
    await client.end();
  }
}

async function statementsOf(chunks: Iterable<string>): Promise<SqlStatement[]> {
  const out: SqlStatement[] = [];
  for await (const statement of splitSqlStatements(chunks)) out.push(statement);
  return out;
}

function chunked(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

function tempFile(name: string, text: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'inboxpulse-restore-'));
  folders.push(dir);
  const file = path.join(dir, name);
  writeFileSync(file, text);
  return file;
}

/** The same server as a DATABASE_URL, for the runtime (a Unix socket goes in the host parameter). */
function databaseUrl(connection: ConnectionSettings): string {
  if (connection.connectionString) return connection.connectionString;
  const auth = `${encodeURIComponent(connection.user ?? '')}:${encodeURIComponent(connection.password ?? '')}`;
  return `postgresql://${auth}@localhost:${connection.port ?? 5432}/${connection.database}?host=${encodeURIComponent(connection.host ?? '')}`;
}

describe('splitting a dump into statements', () => {
  it('splits at top-level semicolons only, reading strings, identifiers, dollar quotes and comments as PostgreSQL does', async () => {
    const sql = [
      '-- a comment; not a statement',
      "SET client_encoding = 'UTF8';",
      '/* a block /* nested; */ comment; */',
      `INSERT INTO "odd;name" VALUES ('it''s; fine', E'esc\\'aped; still', 'a -- b /* c', $$body; $x$ $$, $tag$ $$; $tag$);`,
      'CREATE FUNCTION f() RETURNS int LANGUAGE sql AS $_$ SELECT 1; $_$;',
      '\\restrict abc123',
      'SELECT a$b$c FROM t -- trailing; comment',
      ';',
      '\\unrestrict abc123',
      'SELECT 2',
    ].join('\n');
    const expected = [
      { sql: "SET client_encoding = 'UTF8';", line: 2 },
      {
        sql: `INSERT INTO "odd;name" VALUES ('it''s; fine', E'esc\\'aped; still', 'a -- b /* c', $$body; $x$ $$, $tag$ $$; $tag$);`,
        line: 4,
      },
      { sql: 'CREATE FUNCTION f() RETURNS int LANGUAGE sql AS $_$ SELECT 1; $_$;', line: 5 },
      { sql: 'SELECT a$b$c FROM t -- trailing; comment\n;', line: 7 },
      { sql: 'SELECT 2', line: 10 },
    ];
    expect(await statementsOf([sql])).toEqual(expected);
    // However the stream cuts the text: a chunk may end anywhere, in a tag, a quote or a comment marker.
    for (const size of [1, 2, 3, 5, 7, 64]) expect(await statementsOf(chunked(sql, size))).toEqual(expected);
  });

  it('reads the real dump the same way whole or one character at a time', async () => {
    const text = readFileSync(fixture, 'utf8');
    const whole = await statementsOf([text]);
    expect(whole.length).toBeGreaterThan(100);
    expect(whole.every((s) => s.sql.trim().endsWith(';'))).toBe(true);
    expect(await statementsOf(chunked(text, 1))).toEqual(whole);
    expect(await statementsOf(chunked(text, 4093))).toEqual(whole);
  });

  it('refuses what is not plain SQL: COPY rows, psql commands, a file cut short', async () => {
    await expect(statementsOf(['SET a = 1;\nCOPY public.users (id) FROM stdin;\n1\n\\.\n'])).rejects.toThrow(
      /Line 2: .*COPY \.\.\. FROM stdin.*--inserts/,
    );
    await expect(statementsOf(['\\connect other\nSELECT 1;'])).rejects.toThrow(/Line 1: \\connect is a psql command/);
    await expect(statementsOf(["INSERT INTO t VALUES ('never closed);\n"])).rejects.toBeInstanceOf(RestoreError);
  });
});

describe('npm run db:restore', () => {
  it('restores the PGlite dump: the old accounts and domains, migrated up to 0006, then this version migrates it and runs on it', async () => {
    const connection = await emptyDatabase();
    const progress: string[] = [];
    const summary = await restoreDump({ file: fixture, connection, say: (line) => progress.push(line) });

    expect(summary.migrations.restored).toEqual(oldTags);
    expect(summary.migrations.applied).toEqual(allTags.slice(oldTags.length));
    expect(summary.migrations.applied[0]).toBe('0007_session_cache_notify');
    expect(summary.tables).toMatchObject({
      users: 2,
      domains: 2,
      auth_tokens: 1,
      outbox: 1,
      sessions: 0,
      inbox_tests: 0,
    });
    expect(progress[0]).toBe(`Restoring ${fixture}…`);

    const users = await query<{ id: number; username: string; email: string; hash: string }>(
      connection,
      'SELECT id, username, email, left(password_hash, 10) AS hash FROM users ORDER BY id',
    );
    expect(users).toEqual([
      { id: 1, username: 'olduser', email: 'old.user@example.com', hash: '$argon2id$' },
      { id: 2, username: 'second', email: 'second@example.com', hash: '$argon2id$' },
    ]);
    const domains = await query<{ id: number; domain: string; dkim_selectors: string[]; notes: string | null }>(
      connection,
      'SELECT id, domain, dkim_selectors, notes FROM domains ORDER BY id',
    );
    expect(domains).toEqual([
      { id: 1, domain: 'example.org', dkim_selectors: ['s1', 'google'], notes: NOTES },
      { id: 2, domain: 'mail.example.net', dkim_selectors: [], notes: null },
    ]);
    // Mail the old version had not sent is still there for this one.
    expect(await query(connection, 'SELECT kind, status FROM outbox')).toEqual([
      { kind: 'reset_password', status: 'not_configured' },
    ]);
    // Sequences go on after the restored rows; the job queue is not in the dump.
    expect(
      await query(connection, `SELECT nextval('users_id_seq')::int AS next, to_regnamespace('pgboss') AS pgboss`),
    ).toEqual([{ next: 3, pgboss: null }]);

    // The app starts on it (pg-boss creates its schema again) and the old account signs in with its old password.
    const env = loadEnv({
      NODE_ENV: 'test',
      DATA_DIR: mkdtempSync(path.join(tmpdir(), 'inboxpulse-restore-')),
      DATABASE_URL: databaseUrl(connection),
      APP_SECRET: 'test-secret-test-secret-test-secret-0123',
      ROLES: 'web',
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'silent',
    });
    folders.push(env.DATA_DIR);
    const runtime = await startRuntime(env, { logger: pino({ level: 'silent' }) });
    try {
      const login = await fetch(`${runtime.url}/api/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'olduser', password: 'Correct-Horse-42!' }),
      });
      expect(login.status).toBe(200);
      const cookie = login.headers.get('set-cookie')!.split(';')[0];
      const list = await fetch(`${runtime.url}/api/domains`, { headers: { cookie } });
      expect(
        ((await list.json()) as { domain: string; notes: string | null }[]).map((d) => [d.domain, d.notes]).sort(),
      ).toEqual([
        ['example.org', NOTES],
        ['mail.example.net', null],
      ]);
    } finally {
      await runtime.stop();
    }
    expect(await query(connection, `SELECT to_regclass('pgboss.job') IS NOT NULL AS pgboss`)).toEqual([
      { pgboss: true },
    ]);
  });

  it('refuses a database that holds accounts unless --force, and then replaces it, job queue and all', async () => {
    const connection = await emptyDatabase();
    await restoreDump({ file: fixture, connection });
    await query(
      connection,
      `INSERT INTO users (username, email, password_hash) VALUES ('later', 'later@example.com', 'x')`,
    );
    await query(connection, `CREATE SCHEMA pgboss; CREATE TABLE pgboss.job (id int)`);

    await expect(restoreDump({ file: fixture, connection })).rejects.toThrow(
      'The database already holds InboxPulse data (3 accounts). Restoring replaces all of it: run again with --force',
    );
    expect(await query(connection, 'SELECT count(*)::int AS n FROM users')).toEqual([{ n: 3 }]);

    const summary = await restoreDump({ file: fixture, connection, force: true });
    expect(summary.tables.users).toBe(2);
    expect(summary.migrations.restored).toEqual(oldTags);
    expect(await query(connection, `SELECT to_regnamespace('pgboss') AS pgboss`)).toEqual([{ pgboss: null }]);
  });

  it('restores into a database this version has already migrated but that has no accounts yet (started once before the restore)', async () => {
    const name = `inboxpulse_restore_${randomBytes(5).toString('hex')}`;
    databases.push(name);
    await adminQuery(server.connection, `CREATE DATABASE ${name} TEMPLATE ${server.template}`);
    const connection = onDatabase(server.connection, name);
    const summary = await restoreDump({ file: fixture, connection });
    expect(summary.tables.users).toBe(2);
    expect(summary.migrations.restored).toEqual(oldTags);
  });

  it('changes nothing when the dump fails half-way, or is not a dump of InboxPulse', async () => {
    const connection = await emptyDatabase();
    const broken = tempFile(
      'broken.sql',
      readFileSync(fixture, 'utf8') + '\nINSERT INTO public.users (id) VALUES (1);\n',
    );
    await expect(restoreDump({ file: broken, connection })).rejects.toThrow(
      /^Line \d+ of .*broken\.sql: .*\n {2}INSERT INTO public\.users \(id\) VALUES \(1\);\nNothing was restored\.$/,
    );
    expect(
      await query(connection, `SELECT to_regclass('public.users') AS users, to_regnamespace('drizzle') AS drizzle`),
    ).toEqual([{ users: null, drizzle: null }]);

    const other = tempFile('other.sql', '--\n-- PostgreSQL database dump\n--\nCREATE TABLE public.things (id int);\n');
    await expect(restoreDump({ file: other, connection })).rejects.toThrow(/does not hold InboxPulse's tables/);
    await expect(restoreDump({ file: tempFile('notes.txt', 'hello'), connection })).rejects.toThrow(
      /does not look like a plain-SQL dump/,
    );
    expect(
      await query(connection, `SELECT count(*)::int AS n FROM pg_class WHERE relnamespace = 'public'::regnamespace`),
    ).toEqual([{ n: 0 }]);

    await query(connection, 'CREATE TABLE public.someone_elses (id int)');
    await expect(restoreDump({ file: fixture, connection })).rejects.toThrow(
      /tables in its public schema that are not InboxPulse's/,
    );
  });

  it('as a command: refuses while DATA_DIR still holds the PGlite folder, then restores into the embedded PostgreSQL of DATA_DIR', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'inboxpulse-restore-cli-'));
    folders.push(dataDir);
    mkdirSync(path.join(dataDir, 'pglite'));
    writeFileSync(path.join(dataDir, 'pglite', 'PG_VERSION'), '18\n');
    writeFileSync(path.join(dataDir, 'app-secret'), 'the-old-installations-secret-0123456789\n');

    const refused = await runRestore(dataDir, [fixture]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      `${path.join(dataDir, 'pglite')} still holds the old PGlite database. Move it aside first`,
    );
    expect(readdirSync(dataDir).sort()).toEqual(['app-secret', 'pglite']);

    renameSync(path.join(dataDir, 'pglite'), path.join(dataDir, 'pglite.moved'));
    const done = await runRestore(dataDir, [fixture]);
    expect(done.stderr).toBe('');
    expect(done.code).toBe(0);
    expect(done.stdout).toContain(
      `Restored into the embedded PostgreSQL in ${path.join(dataDir, 'postgres')}; rows per table:`,
    );
    expect(done.stdout).toMatch(/^ {2}users +2$/m);
    expect(done.stdout).toMatch(/^ {2}domains +2$/m);
    expect(done.stdout).toContain(
      'Migrations: 7 from the dump (up to 0006_inbox_test_flow); applied now: 0007_session_cache_notify',
    );
    expect(existsSync(path.join(dataDir, 'postgres', 'PG_VERSION'))).toBe(true);
    // The server was stopped and the DATA_DIR lock released.
    expect(existsSync(path.join(dataDir, 'inboxpulse.pid'))).toBe(false);
    expect(existsSync(path.join(dataDir, 'postgres', 'postmaster.pid'))).toBe(false);
    expect(readFileSync(path.join(dataDir, 'app-secret'), 'utf8')).toBe('the-old-installations-secret-0123456789\n');
    // Two processes that load the server's modules, and a new cluster: seconds each on a busy machine.
  }, 120_000);
});

function runRestore(dataDir: string, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const script = fileURLToPath(new URL('./db-restore.ts', import.meta.url));
  // DATABASE_URL blank: the embedded server of DATA_DIR, whatever the suite runs on.
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}
