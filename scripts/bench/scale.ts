// `npm run bench:scale`: the product with the data of a real customer. Fills a fresh database, through the
// product's own repositories, with a year of history for one account of BENCH_DOMAINS domains (default 1,000):
// DMARC aggregate reports, inbox tests with placements, delivery events and daily figures, blocklist results
// and listings, alerts and DNS changes (scale/*.ts; seeded, so runs compare). Then times, over HTTP as the
// browser asks, what users open every day (scale/calls.ts): p50 and p95 per call.
// The app runs as production runs it (bench-server.ts): the compiled bundle, every role, on the embedded
// PostgreSQL in a temp DATA_DIR, or on DATABASE_URL.
// Prints progress lines, then as its last line one JSON object:
// {"domains": N, "rows": {"<table>": count}, "dbBytes": n, "calls": {"<call>": {"p50": ms, "p95": ms}}}.
// Env: BENCH_DOMAINS (default 1000), BENCH_REPEATS (requests per call, default 20), BENCH_SEED (default 39),
// BENCH_LANES (domains filled at once, default 3), DATABASE_URL.
// BENCH_REUSE=1 (with DATABASE_URL): fill once, keep the data, and on later runs with the same N and seed only
// time the calls again (for trying an index or a query against the same data; the app migrates it on start).
import { startServer } from './bench-server';
import { fillAlerts } from './scale/alerts';
import { fillBlocklists } from './scale/blocklists';
import { dailyCalls, timeCalls } from './scale/calls';
import { databaseSize } from './scale/database-size';
import { fillDmarc } from './scale/dmarc';
import { fillDnsChanges } from './scale/dns-changes';
import { fillAccount } from './scale/domains';
import { fillEvents } from './scale/events';
import { signIn, signUp } from './scale/http';
import { fillInboxTests } from './scale/inbox-tests';
import { domainName, espIpsOf, tierOf, type BenchDomain } from './scale/world';

const count = Number(process.env.BENCH_DOMAINS ?? 1000);
const repeats = Number(process.env.BENCH_REPEATS ?? 20);
const seed = Number(process.env.BENCH_SEED ?? 39);
const lanes = Number(process.env.BENCH_LANES ?? 3);
const reuse = process.env.BENCH_REUSE === '1';
if (reuse && !process.env.DATABASE_URL)
  throw new Error('BENCH_REUSE needs DATABASE_URL: the embedded database is thrown away');

const server = await startServer({ LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' }, 'scale');
try {
  const db = server.database.db;
  const username = `scale_${count}_${seed}`;
  const filled = reuse ? await signIn(server.appUrl, username) : undefined;
  if (filled) {
    console.log(`reusing the data of ${username}`);
    const { rows, dbBytes } = await databaseSize(db);
    const list = (await (
      await fetch(`${server.appUrl}/api/domains`, { headers: { cookie: filled.cookie } })
    ).json()) as {
      id: number;
      domain: string;
    }[];
    const first = list.find((d) => d.domain === domainName(0));
    if (!first) throw new Error(`${username} has no domain ${domainName(0)}`);
    const big: BenchDomain = { index: 0, id: first.id, name: first.domain, tier: tierOf(0), espIps: espIpsOf(0) };
    const calls = await timeCalls(server.appUrl, filled.cookie, dailyCalls(big), repeats);
    console.log(JSON.stringify({ domains: count, rows, dbBytes, calls }));
    await server.stop();
    process.exit(0);
  }
  const { cookie, userId } = await signUp(server.appUrl, reuse ? username : undefined);
  const started = performance.now();
  const { domains, ips } = await fillAccount(db, userId, count);
  await fillDmarc(db, userId, domains, seed, lanes);
  await fillEvents(db, userId, domains, seed, lanes);
  await fillInboxTests(db, userId, domains, seed, lanes);
  await fillDnsChanges(db, userId, domains, seed);
  await fillAlerts(db, userId, domains, seed, lanes);
  await fillBlocklists(db, userId, domains, ips, seed);
  const { rows, dbBytes } = await databaseSize(db);
  console.log(
    `filled in ${((performance.now() - started) / 1000).toFixed(1)} s: ${JSON.stringify(rows)}, ${dbBytes} bytes`,
  );
  // The first domain is a big one (world.ts): the pages of a domain with the most history.
  const calls = await timeCalls(server.appUrl, cookie, dailyCalls(domains[0]), repeats);
  console.log(JSON.stringify({ domains: count, rows, dbBytes, calls }));
} finally {
  await server.stop();
}
process.exit(0);
