// `npm run bench:start`: restart to first answer, as an operator sees it. Runs `npm start`'s own
// launcher (node scripts/start.mjs: the build is already there, so it only runs dist/server.js) on a
// DATA_DIR whose database already exists, and measures from the spawn to the first HTTP answer of
// GET /api/user (a 401: the route, the session check and the database are up). Each run ends one
// of two ways, alternately: SIGTERM (a clean stop) or SIGKILL (the next start finds the killed
// app's PostgreSQL still shutting down, or a stale postmaster.pid). Also prints the memory of the
// idle process tree (node + PostgreSQL, PSS) a second after each start.
// Env: BENCH_RUNS (default 10).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ensureBuilt } from '../build.mjs';
import { treeMemory } from './process-memory';

const runs = Number(process.env.BENCH_RUNS ?? 10);
const port = 3813;
const dataDir = mkdtempSync(path.join(tmpdir(), 'inboxpulse-bench-start-'));
const env = {
  ...process.env,
  PORT: String(port),
  HOST: '127.0.0.1',
  SMTP_PORT: '0',
  DATA_DIR: dataDir,
  LOG_LEVEL: 'warn',
};

function start(): { child: ChildProcess; ready: Promise<number> } {
  const started = performance.now();
  const child = spawn(process.execPath, ['scripts/start.mjs'], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  const ready = (async () => {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the app exited (${child.exitCode}) before answering`);
      const answered = await fetch(`http://127.0.0.1:${port}/api/user`).then(
        (r) => r.status === 401,
        () => false,
      );
      if (answered) return performance.now() - started;
      await new Promise((r) => setTimeout(r, 5));
    }
  })();
  return { child, ready };
}

function stop(child: ChildProcess, signal: 'SIGTERM' | 'SIGKILL'): Promise<void> {
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill(signal);
  });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const stats = (xs: number[]) => ({
  min: Math.round(Math.min(...xs)),
  median: Math.round(median(xs)),
  max: Math.round(Math.max(...xs)),
});

await ensureBuilt({ log: () => {} });
try {
  // The first start creates the database; it is not a restart.
  const first = start();
  const firstMs = await first.ready;
  await stop(first.child, 'SIGTERM');
  const after = { SIGTERM: [] as number[], SIGKILL: [] as number[] };
  const pss: number[] = [];
  let previous: 'SIGTERM' | 'SIGKILL' = 'SIGTERM';
  for (let i = 0; i < runs; i++) {
    const run = start();
    after[previous].push(await run.ready);
    await new Promise((r) => setTimeout(r, 1000));
    pss.push(treeMemory(run.child.pid!).pssMb);
    // Alternate, and end on a clean stop so the temp folder can go.
    previous = i % 2 === 0 && i < runs - 1 ? 'SIGKILL' : 'SIGTERM';
    await stop(run.child, previous);
  }
  console.log(
    `bench:start  ${runs} restarts on an existing database (embedded PostgreSQL), first start (creates it): ${Math.round(firstMs)} ms`,
  );
  console.log(
    JSON.stringify({
      'restart after SIGTERM, ms': stats(after.SIGTERM),
      'restart after SIGKILL, ms': stats(after.SIGKILL),
      'idle PSS MB': stats(pss),
    }),
  );
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
