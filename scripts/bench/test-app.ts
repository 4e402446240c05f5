// `npm run bench:test-app`: what one test file pays for its app, as the server suite runs it. Starts
// the suite's PostgreSQL (embedded, or TEST_DATABASE_URL) with its migrated template, as the global
// setup does, then opens and closes createTestApp() one at a time, and then as three test files
// running side by side do (vitest's workers). The app is the real one: its own database copied from
// the template, pg-boss, the LISTEN connection, the analysis thread pool.
// Env: BENCH_RUNS (default 20), BENCH_PARALLEL (default 3), TEST_DATABASE_URL.
import { startTestDatabaseServer } from '../../server/test/test-postgres';
import { createTestApp } from '../../server/test/test-app';
import type { TestDatabaseServer } from '../../server/test/test-database';

const runs = Number(process.env.BENCH_RUNS ?? 20);
const parallel = Number(process.env.BENCH_PARALLEL ?? 3);

const percentile = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))];
const stats = (xs: number[]) => ({
  p50: Math.round(percentile(xs, 50)),
  p90: Math.round(percentile(xs, 90)),
  max: Math.round(Math.max(...xs)),
});

/** Opens and closes one app, as a test file's beforeAll and afterAll do. */
async function oneFile(databaseServer: TestDatabaseServer): Promise<{ open: number; close: number }> {
  const started = performance.now();
  const t = await createTestApp({ databaseServer });
  const opened = performance.now();
  await t.close();
  return { open: opened - started, close: performance.now() - opened };
}

async function series(databaseServer: TestDatabaseServer, lanes: number) {
  const open: number[] = [];
  const close: number[] = [];
  await Promise.all(
    Array.from({ length: lanes }, async () => {
      for (let i = 0; i < runs / lanes; i++) {
        const r = await oneFile(databaseServer);
        open.push(r.open);
        close.push(r.close);
      }
    }),
  );
  return { 'createTestApp ms': stats(open), 'close ms': stats(close) };
}

const setupStarted = performance.now();
const server = await startTestDatabaseServer();
try {
  console.log(
    `bench:test-app  ${runs} apps a series; database: ${process.env.TEST_DATABASE_URL ? 'TEST_DATABASE_URL' : 'embedded PostgreSQL'}; ` +
      `suite set-up (server + migrated template): ${Math.round(performance.now() - setupStarted)} ms`,
  );
  await oneFile(server); // warm-up: module loading and the first connections are not a test file's cost
  console.log(JSON.stringify({ run: 'one at a time', ...(await series(server, 1)) }));
  console.log(JSON.stringify({ run: `${parallel} side by side`, ...(await series(server, parallel)) }));
} finally {
  await server.stop();
}
process.exit(0);
