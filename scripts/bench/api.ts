// `npm run bench:api`: requests/s and p99 of an authenticated GET /api/user against a bare Fastify
// route, measured in the same run on this machine, and the memory of the app's whole process tree.
// Then a bearer-key route with the rate limiter on (GET /api/dmarc/intake, which reads no table: the
// key lookup and the quota are all there is to measure) beside the same route with the session cookie.
// The app runs as production runs it: the compiled bundle (`node dist/server.js`, built here when
// missing or stale), every role, LOG_LEVEL info (its default: these reads are quick and successful, so
// their access lines are written at debug, ADR 036), on the embedded PostgreSQL
// in a temp DATA_DIR, or on the server of DATABASE_URL when it is set.
// Each app run is bracketed by bare runs (bare, session, bare, session, bare, key, bare, ... in
// rounds), its ratio taken against the mean of the bare runs just before and after it, and each
// figure is the median over the rounds: this machine is shared, and its speed drifts by a third
// within a minute, so a ratio of two runs far apart measured the drift as much as the app.
// Env: BENCH_SECONDS (per run, default 5), BENCH_ROUNDS (default 5: on this machine one run in
// three can be a third slow, and a median of three then moves with it), BENCH_CONNECTIONS (default 50),
// BENCH_WARMUP_SECONDS (default 2, before each route's first run), DATABASE_URL, LOG_LEVEL (default info),
// BENCH_SERVER_NODE_ARGS (node options for the app, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof").
// The goal (issue 39) is CPU per request of GET /api/user <= 1.5x the bare route's in the runs beside it, with
// throughput >= 0.5x: node CPU per request is the figure this machine's drift moves least (a slow minute makes
// every request wait longer, not cost more CPU). The last line is one JSON object with both ratios and the verdict.
import autocannon from 'autocannon';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { ensureBuilt, serverBundle } from '../build.mjs';
import { embeddedConnection } from '../../server/platform/db/installation-database';
import { treeMemory, type TreeMemory } from './process-memory';

const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const warmupSeconds = Number(process.env.BENCH_WARMUP_SECONDS ?? 2);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const logLevel = process.env.LOG_LEVEL ?? 'info'; // the production default
const GOAL = { cpuRatio: 1.5, throughputRatio: 0.5 };
const appPort = 3811;
const barePort = 3812;

/** Starts `node <args>` (one process, no npx wrapper, so kill() stops it) and resolves once `readyUrl` answers. */
async function startChild(args: string[], env: Record<string, string>, readyUrl: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, args, {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
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

interface RunLine {
  title: string;
  'requests/s': number;
  'p50 ms': number;
  'p99 ms': number;
  'node CPU µs/request': number;
  errors: number;
  non2xx: number;
}

/**
 * Runs autocannon against `url`. Besides requests/s and latency, the server process's CPU time per
 * request: on a machine shared with other work, throughput swings with the load, CPU per request much less.
 */
async function run(
  title: string,
  server: ChildProcess,
  url: string,
  headers: Record<string, string>,
  warmup: boolean,
): Promise<RunLine> {
  if (warmup && warmupSeconds > 0) await autocannon({ url, connections, duration: warmupSeconds, headers });
  const cpuBefore = cpuSeconds(server.pid!);
  const result = await autocannon({ url, connections, duration: seconds, headers });
  const cpuMicros = ((cpuSeconds(server.pid!) - cpuBefore) * 1e6) / result.requests.total;
  return {
    title,
    'requests/s': Math.round(result.requests.average),
    'p50 ms': result.latency.p50,
    'p99 ms': result.latency.p99,
    'node CPU µs/request': Math.round(cpuMicros),
    errors: result.errors,
    non2xx: result.non2xx,
  };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** One line per route: the median of each figure over the rounds, errors summed. */
function summary(lines: RunLine[]): RunLine {
  const of = (key: 'requests/s' | 'p50 ms' | 'p99 ms' | 'node CPU µs/request') => median(lines.map((l) => l[key]));
  return {
    title: lines[0].title,
    'requests/s': of('requests/s'),
    'p50 ms': of('p50 ms'),
    'p99 ms': of('p99 ms'),
    'node CPU µs/request': of('node CPU µs/request'),
    errors: lines.reduce((sum, l) => sum + l.errors, 0),
    non2xx: lines.reduce((sum, l) => sum + l.non2xx, 0),
  };
}

/**
 * An API key of the bench user, on the Professional plan (API access). No route changes a plan
 * without billing: the row is changed in the database, as an operator would.
 */
async function professionalApiKey(base: string, cookie: string, userId: number): Promise<string> {
  const client = new pg.Client(
    process.env.DATABASE_URL ? { connectionString: process.env.DATABASE_URL } : embeddedConnection(dataDir),
  );
  await client.connect();
  try {
    await client.query(`UPDATE users SET subscription_plan = 'professional' WHERE id = $1`, [userId]);
  } finally {
    await client.end();
  }
  const res = await fetch(`${base}/api/api-keys/generate`, { method: 'POST', headers: { cookie } });
  if (res.status !== 200) throw new Error(`API key generation failed: ${res.status} ${await res.text()}`);
  const { apiKey } = (await res.json()) as { apiKey: string };
  if ((await fetch(`${base}/api/dmarc/intake`, { headers: { authorization: `Bearer ${apiKey}` } })).status !== 200)
    throw new Error('the API key did not work');
  return apiKey;
}

const memoryLine = (label: string, m: TreeMemory) =>
  `${label}: PSS ${m.pssMb} MB (RSS ${m.rssMb} MB) over ${m.processes} processes`;

await ensureBuilt({ log: (message) => console.log(message) });
const dataDir = mkdtempSync(path.join(tmpdir(), 'inboxpulse-bench-'));
const app = await startChild(
  [...(process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean), serverBundle],
  // A limit no run reaches, so every request is counted and none refused; with it the blocks leased
  // are 5 % of it, as large as a Professional key's share of its process would let them be at most.
  {
    PORT: String(appPort),
    HOST: '127.0.0.1',
    SMTP_PORT: '0',
    DATA_DIR: dataDir,
    LOG_LEVEL: logLevel,
    API_RATE_LIMIT_OVERRIDE: '1000000000',
  },
  `http://127.0.0.1:${appPort}/api/user`,
);
let bare: ChildProcess | undefined;
try {
  bare = await startChild(
    ['--import', 'tsx', 'scripts/bench/bare-server.ts'],
    { PORT: String(barePort) },
    `http://127.0.0.1:${barePort}/bare`,
  );
  const base = `http://127.0.0.1:${appPort}`;
  const reg = await fetch(`${base}/api/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      username: `bench_${Date.now()}`,
      email: `bench_${Date.now()}@example.com`,
      password: 'bench password 1',
    }),
  });
  if (reg.status !== 200) throw new Error(`registration failed: ${reg.status} ${await reg.text()}`);
  const cookie = reg.headers.get('set-cookie')!.split(';')[0];
  if ((await fetch(`${base}/api/user`, { headers: { cookie } })).status !== 200)
    throw new Error('session did not work');
  const apiKey = await professionalApiKey(base, cookie, (await reg.json()).user.id);

  // Idle: a few seconds after start, once start-up work (migrations, pg-boss, first schedules) settled.
  await new Promise((r) => setTimeout(r, 3000));
  const idle = treeMemory(app.pid!);

  const database = process.env.DATABASE_URL ? 'PostgreSQL (DATABASE_URL)' : 'embedded PostgreSQL';
  console.log(
    `bench:api  ${connections} connections, ${seconds} s each after ${warmupSeconds} s warm-up, app: node ${path.relative(process.cwd(), serverBundle)}, database: ${database}, LOG_LEVEL ${logLevel}`,
  );
  const routes: { title: string; server: ChildProcess; url: string; headers: Record<string, string> }[] = [
    { title: 'bare Fastify GET /bare', server: bare, url: `http://127.0.0.1:${barePort}/bare`, headers: {} },
    { title: 'GET /api/user (session)', server: app, url: `${base}/api/user`, headers: { cookie } },
    { title: 'GET /api/dmarc/intake (session)', server: app, url: `${base}/api/dmarc/intake`, headers: { cookie } },
    {
      title: 'GET /api/dmarc/intake (API key, rate limited)',
      server: app,
      url: `${base}/api/dmarc/intake`,
      headers: { authorization: `Bearer ${apiKey}` },
    },
  ];
  const [bareRoute, ...appRoutes] = routes;
  const bareRuns: RunLine[] = [];
  const runs: RunLine[][] = appRoutes.map(() => []);
  const measure = async (route: (typeof routes)[number], warmup: boolean, round: number) => {
    const line = await run(route.title, route.server, route.url, route.headers, warmup);
    console.log(JSON.stringify({ round, ...line }));
    return line;
  };
  for (let round = 1; round <= rounds; round++) {
    for (const [i, route] of appRoutes.entries()) {
      bareRuns.push(await measure(bareRoute, bareRuns.length === 0, round));
      runs[i].push(await measure(route, round === 1, round));
    }
  }
  bareRuns.push(await measure(bareRoute, false, rounds));
  // Run k of route i (in order, all routes interleaved) sits between bare runs n and n + 1.
  const ratios = (i: number, key: 'requests/s' | 'node CPU µs/request' = 'requests/s') =>
    median(
      runs[i].map((line, round) => {
        const n = round * appRoutes.length + i;
        return line[key] / ((bareRuns[n][key] + bareRuns[n + 1][key]) / 2);
      }),
    );
  console.log(`median of ${rounds} rounds:`);
  for (const lines of [bareRuns, ...runs]) console.log(JSON.stringify(summary(lines)));
  const ratio = ratios(0);
  console.log(
    `ratio /api/user : bare = ${ratio.toFixed(3)} (${(100 * ratio).toFixed(1)}% of bare throughput; median of the rounds' ratios, each against the bare runs either side)`,
  );
  const cpuRatio = ratios(0, 'node CPU µs/request');
  const met = cpuRatio <= GOAL.cpuRatio && ratio >= GOAL.throughputRatio;
  console.log(
    `CPU per request /api/user : bare = ${cpuRatio.toFixed(3)} (goal <= ${GOAL.cpuRatio}, throughput >= ${GOAL.throughputRatio}: ${met ? 'met' : 'not met'})`,
  );
  const byKey = median(runs[2].map((line, round) => line['requests/s'] / runs[1][round]['requests/s']));
  console.log(
    `ratio API key route : bare = ${ratios(2).toFixed(3)}; : the same route by session = ${byKey.toFixed(3)}`,
  );
  const after = treeMemory(app.pid!);
  console.log(memoryLine('app process tree idle (node + PostgreSQL)', idle));
  console.log(memoryLine('app process tree after the run', after));
  console.log(
    JSON.stringify({
      cpuRatio: Number(cpuRatio.toFixed(3)),
      throughputRatio: Number(ratio.toFixed(3)),
      goal: GOAL,
      met,
    }),
  );
} finally {
  await Promise.all([stop(app), bare ? stop(bare) : undefined]);
  rmSync(dataDir, { recursive: true, force: true });
}
process.exit(0);
