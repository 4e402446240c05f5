import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { adaptDump, DumpError, dumpPglite, pgliteFolder, PG_DUMP_ARGS } from './pglite-dump.mjs';

/*
 * The parts of scripts/pglite-dump.mjs that need no PGlite (which the script installs from the npm
 * registry, out of reach of the suite): what it changes in pg_dump's output, and what it refuses
 * before it installs or opens anything. db-restore.test.ts restores the real output.
 */

const folders: string[] = [];
afterAll(async () => {
  for (const dir of folders) await rm(dir, { recursive: true, force: true });
});

function dataDirWithPglite(pgVersion = '18'): string {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'inboxpulse-dump-'));
  folders.push(dataDir);
  mkdirSync(path.join(dataDir, 'pglite'));
  writeFileSync(path.join(dataDir, 'pglite', 'PG_VERSION'), `${pgVersion}\n`);
  return dataDir;
}

// What pg_dump 18 writes when schemas are named, cut down to the parts adaptDump looks at.
const PG_DUMP_OUTPUT = `--
-- PostgreSQL database dump
--

SET statement_timeout = 0;
SET transaction_timeout = 0;
SET client_encoding = 'UTF8';

--
-- Name: drizzle; Type: SCHEMA; Schema: -; Owner: -
--

CREATE SCHEMA drizzle;


--
-- Name: public; Type: SCHEMA; Schema: -; Owner: -
--

CREATE SCHEMA public;


--
-- Name: SCHEMA public; Type: COMMENT; Schema: -; Owner: -
--

COMMENT ON SCHEMA public IS 'standard public schema';


CREATE TABLE public.domains (
    notes text
);

INSERT INTO public.domains (notes) VALUES
\t('a note that quotes a dump:
CREATE SCHEMA public;

SET transaction_timeout = 0;
');
`;

describe('pglite-dump', () => {
  it('makes the dump load into any empty PostgreSQL 15 or later, changing nothing after the first table', () => {
    const out = adaptDump(PG_DUMP_OUTPUT, { source: '/srv/data/pglite', date: new Date('2026-11-23T10:00:00Z') });
    const [header, body] = out.split('CREATE TABLE public.domains');
    expect(header).not.toContain('CREATE SCHEMA public;');
    expect(header).not.toContain('COMMENT ON SCHEMA public');
    expect(header).not.toContain('transaction_timeout');
    expect(header).toContain('CREATE SCHEMA drizzle;');
    expect(header).toContain("SET client_encoding = 'UTF8';");
    // Row data is left exactly as dumped, even where it looks like the lines that were removed.
    expect(body).toBe(PG_DUMP_OUTPUT.split('CREATE TABLE public.domains')[1]);
    expect(
      out.startsWith(
        '--\n-- InboxPulse data from /srv/data/pglite, dumped 2026-11-23T10:00:00.000Z by scripts/pglite-dump.mjs\n',
      ),
    ).toBe(true);
    expect(out).toContain('-- Restore it with: npm run db:restore -- <this file>');
  });

  it('dumps only the app schemas, as INSERTs, without owners or privileges', () => {
    expect(PG_DUMP_ARGS).toEqual(
      expect.arrayContaining([
        '--schema=public',
        '--schema=drizzle',
        '--no-owner',
        '--no-privileges',
        '--column-inserts',
      ]),
    );
    expect(PG_DUMP_ARGS.join(' ')).not.toContain('pgboss');
  });

  it('takes DATA_DIR or DATA_DIR/pglite, and nothing else', () => {
    const dataDir = dataDirWithPglite();
    expect(pgliteFolder(dataDir)).toBe(path.join(dataDir, 'pglite'));
    expect(pgliteFolder(path.join(dataDir, 'pglite'))).toBe(path.join(dataDir, 'pglite'));
    expect(() => pgliteFolder(path.join(dataDir, 'elsewhere'))).toThrow(DumpError);
  });

  it('refuses, before installing anything, a folder the old app still runs on or that another PostgreSQL wrote', async () => {
    const cache = path.join(tmpdir(), 'inboxpulse-dump-cache-never-created');
    const running = dataDirWithPglite();
    writeFileSync(path.join(running, 'pglite.pid'), String(process.pid));
    await expect(dumpPglite({ folder: path.join(running, 'pglite'), cache, say: () => {} })).rejects.toThrow(
      `The old InboxPulse (pid ${process.pid}) is still running`,
    );

    const other = dataDirWithPglite('16');
    await expect(dumpPglite({ folder: path.join(other, 'pglite'), cache, say: () => {} })).rejects.toThrow(
      'was written by PostgreSQL 16',
    );
  });
});
