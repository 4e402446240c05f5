// `npm run bench:api`: requests/s and p99 of an authenticated GET /api/user against a bare Fastify
// route, measured in the same run on this machine, and the memory of the app's whole process tree.
// Then a bearer-key route with the rate limiter on (GET /api/dmarc/intake, which reads no table: the
// key lookup and the quota are all there is to measure) beside the same route with the session cookie.
// The app runs as production runs it: the compiled bundle (`node dist/server.js`, built here when
// missing or stale), every role, LOG_LEVEL info (every request logged), on the embedded PostgreSQL
// in a temp DATA_DIR, or on the server of DATABASE_URL when it is set.
// Env: BENCH_SECONDS (default 10), BENCH_CONNECTIONS (default 50), BENCH_WARMUP_SECONDS (default 2),
// DATABASE_URL, LOG_LEVEL (default info).
import autocannon from 'autocannon';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { ensureBuilt, serverBundle } from '../build.mjs';
import { embeddedConnection } from '../../server/platform/db/installation-database';
import { treeMemory, type TreeMemory } from './process-memory';

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const warmupSeconds = Number(process.env.BENCH_WARMUP_SECONDS ?? 2);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const logLevel = process.env.LOG_LEVEL ?? 'info'; // production default: every request logged
const appPort = 3811;
const barePort = 3812;

/** Starts `node <args>` (one process, no npx wrapper, so kill() stops it) and resolves once `readyUrl` answers. */
async function startChild(args: string[], env: Record<string, string>, readyUrl: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit'] });
  let exited = false;
  child.on('exit', () => (exited = true));
  for (let i = 0; i < 600 && !exited; i++) {
    if (
      await fetch(readyUrl).then(
        () => true,
        () => false,
      )
    )
      return child;
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGTERM');
  throw new Error(`${args.join(' ')} did not start`);
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

const ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }));
/** CPU seconds (user + system) a process used so far, from /proc/PID/stat. */
function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / ticksPerSecond; // utime, stime
}

/**
 * Runs autocannon against `url`. Besides requests/s and latency, the server process's CPU time per
 * request: on a machine shared with other work, throughput swings with the load, CPU per request much less.
 */
async function run(title: string, server: ChildProcess, url: string, headers: Record<string, string> = {}) {
  if (warmupSeconds > 0) await autocannon({ url, connections, duration: warmupSeconds, headers });
  const cpuBefore = cpuSeconds(server.pid!);
  const result = await autocannon({ url, connections, duration: seconds, headers });
  const cpuMicros = ((cpuSeconds(server.pid!) - cpuBefore) * 1e6) / result.requests.total;
  const line = {
    title,
    'requests/s': Math.round(result.requests.average),
    'p50 ms': result.latency.p50,
    'p99 ms': result.latency.p99,
    'node CPU µs/request': Math.round(cpuMicros),
    errors: result.errors,
    non2xx: result.non2xx,
  };
  console.log(JSON.stringify(line));
  return line;
}

/**
 * An API key of the bench user, on the Professional plan (API access). No route changes a plan
 * without billing: the row is changed in the database, as an operator would.
 */
async function professionalApiKey(base: string, cookie: string, userId: number): Promise<string> {
  const client = new pg.Client(process.env.DATABASE_URL ? { connectionString: process.env.DATABASE_URL } : embeddedConnection(dataDir));
  await client.connect();
  try {
    await client.query(`UPDATE users SET subscription_plan = 'professional' WHERE id = $1`, [userId]);
  } finally {
    await client.end();
  }
  const res = await fetch(`${base}/api/api-keys/generate`, { method: 'POST', headers: { cookie } });
  if (res.status !== 200) throw new Error(`API key generation failed: ${res.status} ${await res.text()}`);
  const { apiKey } = (await res.json()) as { apiKey: string };
  if ((await fetch(`${base}/api/dmarc/intake`, { headers: { authorization: `Bearer ${apiKey}` } })).status !== 200) throw new Error('the API key did not work');
  return apiKey;
}

const memoryLine = (label: string, m: TreeMemory) => `${label}: PSS ${m.pssMb} MB (RSS ${m.rssMb} MB) over ${m.processes} processes`;

await ensureBuilt({ log: (message) => console.log(message) });
const dataDir = mkdtempSync(path.join(tmpdir(), 'inboxpulse-bench-'));
const app = await startChild(
  [serverBundle],
  // A limit no run reaches, so every request is counted and none refused; with it the blocks leased
  // are 5 % of it, as large as a Professional key's share of its process would let them be at most.
  { PORT: String(appPort), HOST: '127.0.0.1', SMTP_PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: logLevel, API_RATE_LIMIT_OVERRIDE: '1000000000' },
  `http://127.0.0.1:${appPort}/api/user`,
);
let bare: ChildProcess | undefined;
try {
  bare = await startChild(['--import', 'tsx', 'scripts/bench/bare-server.ts'], { PORT: String(barePort) }, `http://127.0.0.1:${barePort}/bare`);
  const base = `http://127.0.0.1:${appPort}`;
  const reg = await fetch(`${base}/api/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: `bench_${Date.now()}`, email: `bench_${Date.now()}@example.com`, password: 'bench password 1' }),
  });
  if (reg.status !== 200) throw new Error(`registration failed: ${reg.status} ${await reg.text()}`);
  const cookie = reg.headers.get('set-cookie')!.split(';')[0];
  if ((await fetch(`${base}/api/user`, { headers: { cookie } })).status !== 200) throw new Error('session did not work');
  const apiKey = await professionalApiKey(base, cookie, (await reg.json()).user.id);

  // Idle: a few seconds after start, once start-up work (migrations, pg-boss, first schedules) settled.
  await new Promise((r) => setTimeout(r, 3000));
  const idle = treeMemory(app.pid!);

  const database = process.env.DATABASE_URL ? 'PostgreSQL (DATABASE_URL)' : 'embedded PostgreSQL';
  console.log(
    `bench:api  ${connections} connections, ${seconds} s each after ${warmupSeconds} s warm-up, app: node ${path.relative(process.cwd(), serverBundle)}, database: ${database}, LOG_LEVEL ${logLevel}`,
  );
  const bareLine = await run('bare Fastify GET /bare', bare, `http://127.0.0.1:${barePort}/bare`);
  const userLine = await run('GET /api/user (session)', app, `${base}/api/user`, { cookie });
  const cookieLine = await run('GET /api/dmarc/intake (session)', app, `${base}/api/dmarc/intake`, { cookie });
  const keyLine = await run('GET /api/dmarc/intake (API key, rate limited)', app, `${base}/api/dmarc/intake`, { authorization: `Bearer ${apiKey}` });
  const after = treeMemory(app.pid!);
  const ratio = userLine['requests/s'] / bareLine['requests/s'];
  console.log(`ratio /api/user : bare = ${ratio.toFixed(3)} (${(100 * ratio).toFixed(1)}% of bare throughput)`);
  const keyRatio = keyLine['requests/s'] / bareLine['requests/s'];
  console.log(
    `ratio API key route : bare = ${keyRatio.toFixed(3)}; : the same route by session = ${(keyLine['requests/s'] / cookieLine['requests/s']).toFixed(3)}`,
  );
  console.log(memoryLine('app process tree idle (node + PostgreSQL)', idle));
  console.log(memoryLine('app process tree after the run', after));
} finally {
  await Promise.all([stop(app), bare ? stop(bare) : undefined]);
  rmSync(dataDir, { recursive: true, force: true });
}
process.exit(0);
