// The production server for the end-to-end benches (bench:smtp, bench:hostile): the compiled bundle
// (`node dist/server.js`, built here when missing or stale) in a child process, roles web,worker,smtp,
// on the embedded PostgreSQL in a fresh temp DATA_DIR, or on the server of DATABASE_URL when it is
// set; and the bench's own way into its database (the embedded server's Unix socket and generated
// password in DATA_DIR, or DATABASE_URL).
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ensureBuilt, serverBundle } from '../build.mjs';
import { openDatabase, type Database } from '../../server/platform/db/client';
import { embeddedConnection } from '../../server/platform/db/installation-database';

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const accepts = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });

export interface BenchServer {
  child: ChildProcess;
  /** The inbound SMTP listener's port on 127.0.0.1. */
  smtpPort: number;
  /** The HTTP port on 127.0.0.1, and APP_URL (http://127.0.0.1:port), which Host and Origin checks accept. */
  httpPort: number;
  appUrl: string;
  database: Database;
  stop(): Promise<void>;
}

/**
 * The production server (node dist/server.js) in a child process, and the bench's own way into its
 * database. `env` adds to (or overrides) this process's environment; its stdout is discarded, its
 * stderr shown. Resolves once both the HTTP and the SMTP port accept connections.
 * BENCH_SERVER_NODE_ARGS: extra node options for the server, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof".
 */
export async function startServer(env: Record<string, string>, name = 'bench'): Promise<BenchServer> {
  await ensureBuilt({ log: (message: string) => console.log(message) });
  const dataDir = mkdtempSync(path.join(tmpdir(), `inboxpulse-bench-${name}-`));
  const smtpPort = await freePort();
  const httpPort = await freePort();
  const appUrl = `http://127.0.0.1:${httpPort}`;
  const nodeArgs = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, serverBundle], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      // With DATABASE_URL the server wants its key from the environment: any will do for a bench.
      ...(process.env.DATABASE_URL && !process.env.APP_SECRET ? { APP_SECRET: randomBytes(32).toString('hex') } : {}),
      APP_URL: appUrl,
      ...env,
      DATA_DIR: dataDir,
      HOST: '127.0.0.1',
      PORT: String(httpPort),
      SMTP_PORT: String(smtpPort),
      ROLES: 'web,worker,smtp',
    },
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  for (let i = 0; !((await accepts(smtpPort)) && (await accepts(httpPort))); i++) {
    if (child.exitCode !== null || i > 600) throw new Error(`the server did not start (exit code ${child.exitCode})`);
    await sleep(100);
  }
  const database: Database = await openDatabase(process.env.DATABASE_URL ?? embeddedConnection(dataDir), 4);
  return {
    child,
    smtpPort,
    httpPort,
    appUrl,
    database,
    async stop() {
      await database.close();
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The server's node process's resident memory, sampled every 50 ms: the peak since the last reset, and the latest. */
export function rssSampler(pid: number) {
  const read = () => Number(/^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;
  let current = read();
  let peak = current;
  const timer = setInterval(() => {
    try {
      current = read();
      peak = Math.max(peak, current);
    } catch {
      // the process ended
    }
  }, 50);
  timer.unref();
  return {
    reset: () => (peak = current = read()),
    sample: () => ({ peak: Math.max(peak, (current = read())), current }),
    stop: () => clearInterval(timer),
  };
}
