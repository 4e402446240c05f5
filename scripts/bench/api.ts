// `npm run bench:api`: requests/s and p99 of an authenticated GET /api/user (session lookup in the
// database) against a bare Fastify route, measured in the same run on this machine.
// Env: BENCH_SECONDS (default 10), BENCH_CONNECTIONS (default 50), DATABASE_URL to bench PostgreSQL.
import autocannon from 'autocannon';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const appPort = 3811;
const barePort = 3812;

/** Starts a server script and resolves once `readyUrl` answers. */
async function startChild(script: string, env: Record<string, string>, readyUrl: string): Promise<ChildProcess> {
  // One process per server (no npx wrapper), so kill() really stops it.
  const child = spawn(process.execPath, ['--import', 'tsx', script], { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit'] });
  let exited = false;
  child.on('exit', () => (exited = true));
  for (let i = 0; i < 600 && !exited; i++) {
    if (await fetch(readyUrl).then(() => true, () => false)) return child;
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGTERM');
  throw new Error(`${script} did not start`);
}

async function run(title: string, url: string, headers: Record<string, string> = {}) {
  const result = await autocannon({ url, connections, duration: seconds, headers });
  const line = { title, 'requests/s': Math.round(result.requests.average), 'p99 ms': result.latency.p99, errors: result.errors, non2xx: result.non2xx };
  console.log(JSON.stringify(line));
  return line;
}

const app = await startChild(
  'server/main.ts',
  {
    PORT: String(appPort),
    HOST: '127.0.0.1',
    DATA_DIR: mkdtempSync(path.join(tmpdir(), 'inboxpulse-bench-')),
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'info', // production default: every request logged
  },
  `http://127.0.0.1:${appPort}/api/user`,
);
const bare = await startChild('scripts/bench/bare-server.ts', { PORT: String(barePort) }, `http://127.0.0.1:${barePort}/bare`);
try {
  const base = `http://127.0.0.1:${appPort}`;
  const reg = await fetch(`${base}/api/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: `bench_${Date.now()}`, email: `bench_${Date.now()}@example.com`, password: 'bench password 1' }),
  });
  if (reg.status !== 200) throw new Error(`registration failed: ${reg.status} ${await reg.text()}`);
  const cookie = reg.headers.get('set-cookie')!.split(';')[0];
  if ((await fetch(`${base}/api/user`, { headers: { cookie } })).status !== 200) throw new Error('session did not work');

  const database = process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite';
  console.log(`bench:api  ${connections} connections, ${seconds} s each, database: ${database}, app LOG_LEVEL ${process.env.LOG_LEVEL ?? 'info'}`);
  const bareLine = await run('bare Fastify GET /bare', `http://127.0.0.1:${barePort}/bare`);
  const userLine = await run('GET /api/user (session)', `${base}/api/user`, { cookie });
  const ratio = userLine['requests/s'] / bareLine['requests/s'];
  console.log(`ratio /api/user : bare = ${ratio.toFixed(3)} (${(100 * ratio).toFixed(1)}% of bare throughput)`);
} finally {
  app.kill('SIGTERM');
  bare.kill('SIGTERM');
}
process.exit(0);
