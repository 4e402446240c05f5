import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { waitUntil } from '../../test/wait-until';
import { isRunning } from './data-dir-lock';
import { startEmbeddedPostgres, type EmbeddedPostgres } from './embedded-postgres';

const log = pino({ level: 'silent' });
const folders: string[] = [];
function newDataDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'inboxpulse-embedded-'));
  folders.push(dir);
  return dir;
}
afterAll(async () => {
  for (const dir of folders) await rm(dir, { recursive: true, force: true });
});

async function query<T extends pg.QueryResultRow>(
  server: EmbeddedPostgres,
  text: string,
  values?: unknown[],
): Promise<T[]> {
  const client = new pg.Client(server.connection);
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}

/** Runs the child script: it starts the server on `dataDir`, writes a row, prints "ready <server pid>", then waits to be killed. */
function startChildApp(dataDir: string): Promise<{ pid: number; serverPid: number }> {
  const script = fileURLToPath(new URL('./embedded-postgres.child.ts', import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', script, dataDir], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const match = /ready (\d+)/.exec(out);
      if (match) resolve({ pid: child.pid!, serverPid: Number(match[1]) });
    });
    child.on('exit', (code) => reject(new Error(`child exited (${code}) before it was ready: ${out}`)));
  });
}

describe('the embedded PostgreSQL', () => {
  it('creates its cluster once, listens on a private Unix socket only, and asks for the generated password', async () => {
    const dataDir = newDataDir();
    const server = await startEmbeddedPostgres({ dataDir, log });
    try {
      expect(statSync(path.join(dataDir, 'postgres-password')).mode & 0o777).toBe(0o600);
      expect(statSync(path.join(dataDir, 'postgres-run')).mode & 0o777).toBe(0o700);
      expect(server.connection.host).toBe(path.join(dataDir, 'postgres-run'));
      const [settings] = await query<{ listen: string; version: string }>(
        server,
        `SELECT current_setting('listen_addresses') AS listen, current_setting('server_version_num') AS version`,
      );
      expect(settings.listen).toBe('');
      expect(Number(settings.version)).toBeGreaterThanOrEqual(150000);
      // Case mapping beyond ASCII, whatever the machine's locales (builtin C.UTF-8 provider).
      expect(await query(server, `SELECT lower('ÉCOLE') AS l`)).toEqual([{ l: 'école' }]);

      const intruder = new pg.Client({ ...server.connection, password: 'not-the-password' });
      await expect(intruder.connect()).rejects.toThrow(/password authentication failed/);

      if (userInfo().uid === 0) {
        // PostgreSQL refuses root: the server runs as its own system user.
        const uid = /^Uid:\s+(\d+)/m.exec(readFileSync(`/proc/${server.pid}/status`, 'utf8'))![1];
        expect(Number(uid)).not.toBe(0);
      }
    } finally {
      await server.stop();
    }
    expect(isRunning(server.pid)).toBe(false);
  });

  it('keeps what was committed across a restart, and starts again after its app was killed with SIGKILL', async () => {
    const dataDir = newDataDir();
    const first = await startChildApp(dataDir);
    process.kill(first.pid, 'SIGKILL');
    // At once, as a supervisor restarting the app would: the old server may still be shutting down.
    const server = await startEmbeddedPostgres({ dataDir, log });
    try {
      expect(server.pid).not.toBe(first.serverPid);
      expect(isRunning(first.serverPid)).toBe(false);
      expect(await query(server, 'SELECT note FROM survivors')).toEqual([{ note: 'written before the kill' }]);
    } finally {
      await server.stop();
    }
  }, 60_000);

  it('starts although postmaster.pid names a process that is not a PostgreSQL server', async () => {
    const dataDir = newDataDir();
    const server = await startEmbeddedPostgres({ dataDir, log });
    await server.stop();
    const pidFile = path.join(dataDir, 'postgres', 'postmaster.pid');
    expect(existsSync(pidFile)).toBe(false);
    // After a reboot the number may belong to anyone: here, this very test process.
    writeFileSync(pidFile, `${process.pid}\n${path.join(dataDir, 'postgres')}\n`);
    const again = await startEmbeddedPostgres({ dataDir, log });
    try {
      expect(await query(again, 'SELECT 1 AS one')).toEqual([{ one: 1 }]);
    } finally {
      await again.stop();
    }
  });

  it('stops its server when the app process dies, so no server is left behind', async () => {
    const dataDir = newDataDir();
    const child = await startChildApp(dataDir);
    process.kill(child.pid, 'SIGKILL');
    await waitUntil(() => !isRunning(child.serverPid), 'the server to stop after its app was killed', {
      timeoutMs: 20_000,
    });
  }, 30_000);

  it.skipIf(userInfo().uid !== 0)(
    'as root, refuses with a clear message a DATA_DIR its system user cannot reach',
    async () => {
      const closed = newDataDir(); // mkdtemp makes it 0700: nobody else may enter
      const dataDir = path.join(closed, 'inside', 'data');
      mkdirSync(dataDir, { recursive: true });
      await expect(startEmbeddedPostgres({ dataDir, log })).rejects.toThrow(
        `that user cannot enter ${closed} (mode 700), which holds ${dataDir}. Run InboxPulse from a folder other users can enter`,
      );
      expect(existsSync(path.join(dataDir, 'postgres'))).toBe(false);
    },
  );
});
