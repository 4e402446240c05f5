// `npm run bench:smtp`: inbound SMTP + inbox-test analysis, end to end, on this machine.
//
// What runs: the server as production runs it, the compiled bundle (`node dist/server.js`, built
// here when missing or stale; roles web,worker,smtp; the default job poll of 2 s; LOG_LEVEL info,
// its output discarded) on the embedded PostgreSQL in a fresh temp DATA_DIR, or on the server of
// DATABASE_URL when it is set. The bench talks to it as the outside world does (SMTP), and reads and
// prepares the database over its own connection: the embedded server's Unix socket and generated
// password in DATA_DIR, or DATABASE_URL. Its DNS_SERVERS point at a dns2 server on 127.0.0.1 in
// this (parent) process, which publishes SPF (ip4:127.0.0.0/8 -all), a 2048-bit DKIM key and DMARC
// p=reject for bench.test, plus PTR/A records for every client address so the forward-confirmed
// reverse DNS check passes. Everything the analysis asks beyond that zone, notably the DNSBL queries
// for the client IPs, gets a fast NXDOMAIN from that loopback server: no internet latency is in these numbers.
//
// What is measured, per run of N messages from C concurrent clients:
// - accepted msg/s: N / (wall time from the moment the clients start connecting, so connection
//   set-up, greeting and EHLO are included, to the last "250" reply at a client).
//   Each client holds one SMTP connection at a time (a new one after the listener's messages-per-
//   connection limit, as an MTA does) and sends its messages one after another, waiting for each
//   250 (as an MTA does); messages are DKIM-signed before the clock starts, so the clients spend
//   their time waiting on the server, not signing.
// - report latency p50/p99: inbox_test_reports.created_at (the database clock, now() of the
//   transaction that writes the report, i.e. after the analysis finished) minus the moment the 250
//   arrived at the client (performance.timeOrigin + performance.now()); same machine, same clock.
//   The bench only polls a count of reports (every second) to know when a run is done; the
//   latencies come from the stored timestamps, not from the polling.
// - analysed msg/s: N / (last report's created_at - the run's start).
// - node / postgres CPU ms/msg: CPU time the server's node process (every thread) and its PostgreSQL
//   used from the run's start to its last report, per message; steadier than msg/s on a shared machine.
//   "node main thread" is the event loop's share of node's (the rest: analysis threads, GC helpers).
//   "bench CPU ms/msg" is this process's (the SMTP clients and the DNS server), on the same cores.
// - db commits/msg: transactions committed in the database during the run (pg_stat_database; a
//   statement outside a transaction is one, and the bench's own polling adds a few) per message.
// - where one message's work goes, stage by stage (stageBreakdown): the PostgreSQL CPU of each client (pg-boss, the
//   app's queries, the bench), the rows each table took (pg_stat_user_tables: rate_limits for the receive,
//   inbound_messages for the store, pgboss.job for the job queue, inbox_test* for the report and placement, alerts),
//   the jobs of each queue, and "queue wait" (a processing job's started_on - created_on) beside "job run". The
//   node side: "node main thread" (receive, the database writes, the job queue's client) against the rest of node
//   (the analysis threads, GC). PostgreSQL's statistics reach its views within a second or so of a busy backend's
//   transaction but 10 s after it goes idle: the rows are read once they stayed the same 11 s (the commit count is
//   read when the last report is in, so its last few may count in the next run).
//   On a server that has pg_stat_statements (DATABASE_URL; shared_preload_libraries = 'pg_stat_statements' and the
//   extension created in the database), the ten statements that took the most execution time, per message.
// - memory: the node process's RSS (/proc/PID/status), sampled every 50 ms: the peak during the run
//   and the value when the last report was stored; and the PSS of the server's whole process tree
//   (node, its analysis threads, PostgreSQL and its backends; /proc/PID/smaps_rollup, shared pages
//   counted once) idle before the runs, at the end of each run, and after them all.
// - job run p50/p99 and jobs/message: from pg-boss's own job rows (completed_on - started_on), to
//   tell the time spent analysing from the time spent waiting in the queue; "jobs left after last
//   report" are queued jobs for messages already processed (maintenance queues a message that is
//   still unprocessed after 5 minutes again), and "their drain s" how long the worker took to get
//   through them. The next run starts only once the queue is empty, so runs are comparable.
// A warm-up run goes first (reported, not to be quoted). Then a serial probe sends one message at a
// time, after a random pause, and waits for its report: the latency of a message on an idle server.
//
// Clients connect from distinct loopback networks (127.R.C.1, one /24 each): the listener counts senders by
// network (/24) and allows 20 concurrent connections and 240 new ones per 10 minutes from one, which 50 clients
// from 127.0.0.1 would hit, as real senders come from many networks. Those networks are new to the listener in every
// run, so it treats them as strangers: each connection waits SESSION_LIMITS.greetingDelayMs (2 s) for its greeting,
// once per 10 messages a client, and the accepted and analysed msg/s include those waits (a real sender whose mail
// the product used is greeted at once).
//
// Options (or env): --tests N (BENCH_TESTS, 200), --clients 1,10,50 (BENCH_CLIENTS),
// --warmup N (BENCH_WARMUP, 20), --probes N (BENCH_PROBES, 10), --drain-seconds S
// (BENCH_DRAIN_SECONDS, 1200: how long to wait for a run's reports before giving up on it).
// BENCH_SERVER_NODE_ARGS: extra node options for the server, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof".
import { execFileSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { inArray, sql } from 'drizzle-orm';
import nodemailer from 'nodemailer';
import { serverBundle } from '../build.mjs';
import type { Database } from '../../server/platform/db/client';
import { inboxTestReports, users } from '../../server/platform/db/schema/index';
import { createInboxTest } from '../../server/inbox-tests/inbox-tests.repo';
import { SESSION_LIMITS } from '../../server/platform/smtp/smtp-listener';
import { startDnsServer } from '../../server/test/dns-server';
import { rssSampler, sleep, startServer } from './bench-server';
import { treeMemory, type TreeMemory } from './process-memory';

const INBOUND_DOMAIN = 'inbox.bench.test';
const SENDER_DOMAIN = 'bench.test';

// ---- the server process ----------------------------------------------------------------------------

interface JobStats {
  jobs: number;
  messages: number;
  runP50: number | null;
  runP99: number | null;
}

interface StatementTotals {
  query: string;
  calls: number;
  ms: number;
}

interface ReportTime {
  testId: number;
  createdAtMs: number;
  spf: string | null;
  dkim: string | null;
  dmarc: string | null;
}

const ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }));

/**
 * CPU seconds used so far by the server's node process (all its threads) and by the rest of its tree
 * (PostgreSQL), from /proc/PID/stat: user + system, plus those of reaped children, so a PostgreSQL
 * backend that ended meanwhile still counts (in its postmaster). On a machine shared with other work
 * throughput swings with the load; CPU per message much less.
 */
function treeCpu(pid: number): { node: number; main: number; postgres: number } {
  const children = new Map<number, number[]>();
  const times = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const ppid = Number(fields[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
      times.set(
        Number(entry),
        (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) / ticksPerSecond,
      );
    } catch {
      // ended meanwhile
    }
  }
  let postgres = 0;
  const pending = [...(children.get(pid) ?? [])];
  while (pending.length) {
    const current = pending.pop()!;
    postgres += times.get(current) ?? 0;
    pending.push(...(children.get(current) ?? []));
  }
  // The main thread alone (its task id is the process id): the event loop that answers SMTP and HTTP and writes the
  // database.
  const mainStat = readFileSync(`/proc/${pid}/task/${pid}/stat`, 'utf8');
  const mainFields = mainStat.slice(mainStat.lastIndexOf(')') + 2).split(' ');
  const main = (Number(mainFields[11]) + Number(mainFields[12])) / ticksPerSecond;
  return { node: times.get(pid) ?? 0, main, postgres };
}

/** CPU seconds one process has used (user + system), or undefined when it has ended or cannot be read. */
function processCpu(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / ticksPerSecond;
  } catch {
    return undefined;
  }
}

/** The bench's own connections say who they are, so their CPU is not counted as the server's. */
const BENCH_APPLICATION = 'inboxpulse-bench';

/** What the bench asks of the server's database. */
function benchQueries(database: Database) {
  const db = database.db;
  return {
    async createUser(): Promise<number> {
      const [user] = await db
        .insert(users)
        .values({ username: 'bench', email: 'bench@example.com', passwordHash: 'x' })
        .returning();
      return user.id;
    },
    async createTests(userId: number, n: number) {
      const tests = [];
      for (let i = 0; i < n; i++) {
        const test = await createInboxTest(db, userId, INBOUND_DOMAIN);
        tests.push({ id: test.id, address: test.testEmailAddress });
      }
      return tests;
    },
    async countReports(ids: number[]): Promise<number> {
      const [row] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(inboxTestReports)
        .where(inArray(inboxTestReports.testId, ids));
      return row.n;
    },
    reports: (ids: number[]): Promise<ReportTime[]> =>
      db
        .select({
          testId: inboxTestReports.testId,
          createdAtMs: sql<number>`(extract(epoch from ${inboxTestReports.createdAt}) * 1000)::float8`,
          spf: sql<string | null>`${inboxTestReports.report}->'authentication'->'spf'->>'result'`,
          dkim: sql<string | null>`${inboxTestReports.report}->'authentication'->'dkim'->0->>'result'`,
          dmarc: sql<string | null>`${inboxTestReports.report}->'authentication'->'dmarc'->>'result'`,
        })
        .from(inboxTestReports)
        .where(inArray(inboxTestReports.testId, ids)),
    async jobs(messageIds: number[]): Promise<JobStats> {
      // pg-boss's own record of each processing job: how long it ran, and how many jobs a message got.
      const { rows } = await database.pool.query<JobStats>(
        `select count(*)::int as jobs,
                count(distinct data->>'messageId')::int as messages,
                percentile_cont(0.5) within group (order by extract(epoch from completed_on - started_on) * 1000) as "runP50",
                percentile_cont(0.99) within group (order by extract(epoch from completed_on - started_on) * 1000) as "runP99"
         from pgboss.job
         where name = 'process-inbound-message' and (data->>'messageId')::int = any($1::int[])`,
        [messageIds],
      );
      return rows[0];
    },
    /** Transactions committed in the server's database so far (each statement outside a transaction is one). */
    async commits(): Promise<number> {
      const { rows } = await database.pool.query<{ n: string }>(
        `select xact_commit as n from pg_stat_database where datname = current_database()`,
      );
      return Number(rows[0].n);
    },
    /** Rows each table took (inserted + updated + deleted) so far: where a message's writes go, stage by stage. */
    async tableWrites(): Promise<Map<string, number>> {
      const { rows } = await database.pool.query<{ name: string; n: string }>(
        // pg-boss keeps each queue's jobs in a table of its own, named by a hash: named here by its queue.
        `select coalesce('pgboss.job (' || q.name || ')', t.schemaname || '.' || t.relname) as name,
                t.n_tup_ins + t.n_tup_upd + t.n_tup_del as n
         from pg_stat_user_tables t left join pgboss.queue q on t.schemaname = 'pgboss' and q.partition_name = t.relname`,
      );
      return new Map(rows.map((row) => [row.name, Number(row.n)]));
    },
    /** The jobs queued since `sinceMs` (epoch ms), per queue: the job queue's share of a message's work. */
    async jobsByQueue(sinceMs: number): Promise<Map<string, number>> {
      const { rows } = await database.pool.query<{ name: string; n: number }>(
        `select name, count(*)::int as n from pgboss.job where created_on >= to_timestamp($1 / 1000.0) group by name`,
        [sinceMs],
      );
      return new Map(rows.map((row) => [row.name, row.n]));
    },
    /** How long the processing jobs of these messages waited in the queue before a worker took them. */
    async queueWait(messageIds: number[]): Promise<{ p50: number | null; p99: number | null }> {
      const { rows } = await database.pool.query<{ p50: number | null; p99: number | null }>(
        `select percentile_cont(0.5) within group (order by extract(epoch from started_on - created_on) * 1000) as p50,
                percentile_cont(0.99) within group (order by extract(epoch from started_on - created_on) * 1000) as p99
         from pgboss.job
         where name = 'process-inbound-message' and (data->>'messageId')::int = any($1::int[])`,
        [messageIds],
      );
      return rows[0];
    },
    /** The server's PostgreSQL backends now, by who opened them: pg-boss ('pgboss'), the app's pool, the bench. */
    async backends(): Promise<{ pid: number; client: string }[]> {
      const { rows } = await database.pool.query<{ pid: number; client: string }>(
        `select pid, case application_name when 'pgboss' then 'job queue (pg-boss)' when '${BENCH_APPLICATION}' then 'bench'
                  when '' then 'app queries' else application_name end as client
         from pg_stat_activity where datname = current_database()`,
      );
      return rows;
    },
    /**
     * Each statement's calls and execution time in this database so far, when the server has pg_stat_statements
     * (loaded through shared_preload_libraries, the extension created in the database); undefined otherwise.
     */
    async statements(): Promise<Map<string, StatementTotals> | undefined> {
      try {
        const { rows } = await database.pool.query<StatementTotals & { id: string }>(
          `select queryid::text as id, min(query) as query, sum(calls)::float8 as calls, sum(total_exec_time) as ms
           from pg_stat_statements where dbid = (select oid from pg_database where datname = current_database())
           group by queryid`,
        );
        return new Map(rows.map(({ id, ...totals }) => [id, totals]));
      } catch {
        return undefined; // no pg_stat_statements here
      }
    },
    async queued(): Promise<number> {
      // Processing jobs not finished yet (including duplicates maintenance queued for old messages).
      const { rows } = await database.pool.query<{ n: number }>(
        `select count(*)::int as n from pgboss.job where name = 'process-inbound-message' and state in ('created', 'retry', 'active')`,
      );
      return rows[0].n;
    },
  };
}

// ---- the bench (parent) ----------------------------------------------------------------------------

function options() {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    options: {
      tests: { type: 'string' },
      clients: { type: 'string' },
      warmup: { type: 'string' },
      probes: { type: 'string' },
      'drain-seconds': { type: 'string' },
    },
  });
  const int = (value: string | undefined, fallback: number) => {
    const n = Number(value ?? fallback);
    if (!Number.isInteger(n) || n < 0) throw new Error(`expected a whole number, got ${value}`);
    return n;
  };
  return {
    tests: int(values.tests ?? process.env.BENCH_TESTS, 200),
    clients: (values.clients ?? process.env.BENCH_CLIENTS ?? '1,10,50').split(',').map((c) => int(c.trim(), 1)),
    warmup: int(values.warmup ?? process.env.BENCH_WARMUP, 20),
    probes: int(values.probes ?? process.env.BENCH_PROBES, 10),
    drainSeconds: int(values['drain-seconds'] ?? process.env.BENCH_DRAIN_SECONDS, 1200),
  };
}

const now = () => performance.timeOrigin + performance.now();
const queuedIds = (response: string) =>
  (/Queued as ([\d,]+)/.exec(response)?.[1] ?? '').split(',').filter(Boolean).map(Number);

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}
const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);
const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;

async function orchestrate(): Promise<void> {
  const config = options();

  // Client addresses: run r uses 127.(10+r).C.1, a network per client, so no run inherits another's counters.
  const clientIp = (run: number, client: number) => {
    if (client > 255) throw new Error('at most 256 clients: one loopback /24 each');
    return `127.${10 + run}.${client}.1`;
  };
  const heloOf = (ip: string) => `mta-${ip.replaceAll('.', '-')}.${SENDER_DOMAIN}`;

  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const publicDer = publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
  const privatePem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const runs = [Math.min(config.warmup, 10) || 1, ...config.clients, 1];
  const zone: Record<string, { TXT?: string[]; A?: string[]; PTR?: string[] }> = {
    [SENDER_DOMAIN]: { TXT: ['v=spf1 ip4:127.0.0.0/8 -all'] },
    [`s1._domainkey.${SENDER_DOMAIN}`]: { TXT: [`v=DKIM1; k=rsa; p=${publicDer}`] },
    [`_dmarc.${SENDER_DOMAIN}`]: { TXT: ['v=DMARC1; p=reject'] },
  };
  runs.forEach((clients, run) => {
    for (let c = 0; c < clients; c++) {
      const ip = clientIp(run, c);
      zone[`${ip.split('.').reverse().join('.')}.in-addr.arpa`] = { PTR: [heloOf(ip)] };
      zone[heloOf(ip)] = { A: [ip] };
    }
  });
  const dns = await startDnsServer(zone);

  const server = await startServer(
    { INBOUND_DOMAIN, DNS_SERVERS: dns.address, LOG_LEVEL: process.env.LOG_LEVEL ?? 'info' },
    'smtp',
  );
  const { smtpPort } = server;
  // The bench asks one thing at a time, so its pool keeps the one connection it opened (to check the server's version).
  await server.database.pool.query(`set application_name = '${BENCH_APPLICATION}'`);
  const queries = benchQueries(server.database);
  const rss = rssSampler(server.child.pid!);
  try {
    const userId = await queries.createUser();
    await sleep(3000); // let start-up settle (migrations, pg-boss maintenance) before the idle figure
    const idle = { rss: rss.sample(), tree: treeMemory(server.child.pid!) };
    const signer = nodemailer.createTransport({
      streamTransport: true,
      buffer: true,
      dkim: { domainName: SENDER_DOMAIN, keySelector: 's1', privateKey: privatePem },
    });

    /** Creates n tests and their DKIM-signed messages (before any clock starts). */
    async function prepare(n: number) {
      const tests = await queries.createTests(userId, n);
      const messages = [];
      for (const test of tests) {
        const { message } = await signer.sendMail({
          from: `Bench News <news@${SENDER_DOMAIN}>`,
          to: test.address,
          subject: `[TEST-${test.id}] Our spring collection is here`,
          text: 'Our spring collection is here: light jackets and linen shirts.\nSee it: https://bench.test/spring\n\nUnsubscribe: https://bench.test/u?x=1',
          html: '<p>Our spring collection is here: light jackets and linen shirts.</p><p><a href="https://bench.test/spring">See the collection</a></p><p><a href="https://bench.test/u?x=1">Unsubscribe</a></p>',
          list: { unsubscribe: { url: 'https://bench.test/u?x=1', comment: 'Unsubscribe' } },
          headers: { 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
        });
        messages.push({ testId: test.id, to: test.address, raw: message as Buffer });
      }
      return messages;
    }

    function transportFor(ip: string) {
      return nodemailer.createTransport({
        pool: true,
        maxConnections: 1,
        // As an MTA does, a new connection after the listener's limit of messages per connection.
        maxMessages: SESSION_LIMITS.messagesPerSession,
        host: '127.0.0.1',
        port: smtpPort,
        secure: false,
        ignoreTLS: true,
        localAddress: ip,
        name: heloOf(ip),
      });
    }

    async function waitForReports(ids: number[], timeoutMs: number, pollMs: number): Promise<boolean> {
      const until = Date.now() + timeoutMs;
      while (Date.now() < until) {
        if ((await queries.countReports(ids)) === ids.length) return true;
        await sleep(pollMs);
      }
      return false;
    }

    /** Waits until no processing job is queued; returns how many there were and how long that took. */
    async function drainQueue(): Promise<{ leftover: number; seconds: number }> {
      const started = Date.now();
      const leftover = await queries.queued();
      let queued = leftover;
      while (queued > 0) {
        if (Date.now() - started > config.drainSeconds * 1000)
          throw new Error(`${queued} processing jobs still queued after ${config.drainSeconds} s`);
        await sleep(1000);
        queued = await queries.queued();
      }
      return { leftover, seconds: Math.round((Date.now() - started) / 1000) };
    }

    /**
     * The rows each table took, once PostgreSQL's statistics have caught up: a backend reports its counts a second or
     * so after a transaction when busy, but ten seconds after it goes idle, so the counts must stay the same that long.
     */
    async function settledTableWrites(): Promise<Map<string, number>> {
      const started = Date.now();
      let last = await queries.tableWrites();
      let changedAt = Date.now();
      while (Date.now() - changedAt < 11_000 && Date.now() - started < 40_000) {
        await sleep(1000);
        const next = await queries.tableWrites();
        if ([...next].some(([table, n]) => last.get(table) !== n)) changedAt = Date.now();
        last = next;
      }
      return last;
    }

    async function run(runIndex: number, clients: number, n: number, label: string) {
      const messages = await prepare(n);
      const writesBefore = await settledTableWrites();
      const statementsBefore = await queries.statements();
      rss.reset();
      const cpuBefore = treeCpu(server.child.pid!);
      const commitsBefore = await queries.commits();
      const backendsBefore = new Map((await queries.backends()).map((b) => [b.pid, processCpu(b.pid) ?? 0]));
      const benchCpuBefore = process.cpuUsage();
      const acceptedAt = new Map<number, number>();
      const messageIds: number[] = [];
      const failures: string[] = [];
      const started = now();
      await Promise.all(
        Array.from({ length: clients }, async (_, c) => {
          const transport = transportFor(clientIp(runIndex, c));
          try {
            for (let i = c; i < messages.length; i += clients) {
              const m = messages[i];
              try {
                const info = await transport.sendMail({
                  envelope: { from: `bounce@${SENDER_DOMAIN}`, to: m.to },
                  raw: m.raw,
                });
                if (!info.response.startsWith('250')) throw new Error(info.response);
                acceptedAt.set(m.testId, now());
                messageIds.push(...queuedIds(info.response));
              } catch (error) {
                failures.push((error as Error).message);
              }
            }
          } finally {
            transport.close();
          }
        }),
      );
      const acceptSeconds = (Math.max(...acceptedAt.values()) - started) / 1000;
      const accepted = [...acceptedAt.keys()];
      const complete = await waitForReports(accepted, config.drainSeconds * 1000, 1000);
      const memory = rss.sample();
      const cpu = treeCpu(server.child.pid!);
      const commits = (await queries.commits()) - commitsBefore;
      const postgresByClient = new Map<string, number>();
      for (const { pid, client } of await queries.backends()) {
        const used = (processCpu(pid) ?? 0) - (backendsBefore.get(pid) ?? 0);
        postgresByClient.set(client, (postgresByClient.get(client) ?? 0) + used);
      }
      const jobsByQueue = await queries.jobsByQueue(started);
      const queueWait = await queries.queueWait(messageIds);
      const benchCpu = process.cpuUsage(benchCpuBefore);
      const tree = treeMemory(server.child.pid!);
      const reports = await queries.reports(accepted);
      const latencies = reports.map((r) => r.createdAtMs - acceptedAt.get(r.testId)!).sort((a, b) => a - b);
      const lastReport = Math.max(...reports.map((r) => r.createdAtMs));
      const jobs = await queries.jobs(messageIds);
      // Jobs still queued once every report is in are duplicates (the message was processed already);
      // the next run starts only when they are gone, so runs do not inherit each other's queue.
      const after = await drainQueue();
      const writes = await settledTableWrites();
      const statements = statementsBefore && (await queries.statements());
      const authPass = reports.filter((r) => r.spf === 'pass' && r.dkim === 'pass' && r.dmarc === 'pass').length;
      return {
        run: label,
        clients,
        messages: n,
        'accepted msg/s': round(accepted.length / acceptSeconds),
        'accept s': round(acceptSeconds, 2),
        refused: failures.length,
        analysed: `${reports.length}/${accepted.length}${complete ? '' : ' (gave up waiting)'}`,
        'analysed msg/s': round(reports.length / ((lastReport - started) / 1000), 2),
        'report p50 ms': Math.round(percentile(latencies, 50)),
        'report p99 ms': Math.round(percentile(latencies, 99)),
        'report max ms': Math.round(latencies[latencies.length - 1]),
        'job run p50 ms': Math.round(jobs.runP50 ?? NaN),
        'job run p99 ms': Math.round(jobs.runP99 ?? NaN),
        'jobs/message': round(jobs.jobs / Math.max(1, jobs.messages), 2),
        'jobs left after last report': after.leftover,
        'their drain s': after.seconds,
        'spf+dkim+dmarc pass': `${authPass}/${reports.length}`,
        'node CPU ms/msg': round(((cpu.node - cpuBefore.node) * 1000) / accepted.length, 2),
        'db commits/msg': round(commits / accepted.length, 1),
        'node main thread CPU ms/msg': round(((cpu.main - cpuBefore.main) * 1000) / accepted.length, 2),
        'postgres CPU ms/msg': round(((cpu.postgres - cpuBefore.postgres) * 1000) / accepted.length, 2),
        'bench CPU ms/msg': round((benchCpu.user + benchCpu.system) / 1000 / accepted.length, 2),
        'queue wait p50 ms': Math.round(queueWait.p50 ?? NaN),
        'queue wait p99 ms': Math.round(queueWait.p99 ?? NaN),
        ...stageBreakdown(accepted.length, {
          postgresTotal: cpu.postgres - cpuBefore.postgres,
          postgresByClient,
          writes: [...writes].map(([table, n]) => [table, n - (writesBefore.get(table) ?? 0)]),
          jobsByQueue,
        }),
        ...(statements && {
          'top statements/msg (pg_stat_statements)': topStatements(accepted.length, statementsBefore!, statements),
        }),
        'server rss peak MB': mb(memory.peak),
        'server rss end MB': mb(memory.current),
        'tree PSS end MB': tree.pssMb,
        ...(failures.length ? { 'first refusal': failures[0] } : {}),
      };
    }

    console.log(
      `bench:smtp  ${config.tests} messages per run, clients ${config.clients.join('/')}, ${config.warmup} warm-up, on ${cpus().length} cores (${cpus()[0]?.model ?? 'cpu'}), Node ${process.version}, database: ${process.env.DATABASE_URL ? 'PostgreSQL (DATABASE_URL)' : 'embedded PostgreSQL'}`,
    );
    console.log(
      `server: node ${path.relative(process.cwd(), serverBundle)} ${(process.env.BENCH_SERVER_NODE_ARGS ?? '').trim()}, roles web,worker,smtp, job poll 2 s (default), LOG_LEVEL ${process.env.LOG_LEVEL ?? 'info'}; DNS: dns2 on ${dns.address} (SPF/DKIM/DMARC/PTR for ${SENDER_DOMAIN}; DNSBL queries for the 127.x client IPs get a fast loopback NXDOMAIN, not internet latency)`,
    );
    console.log(`server rss idle MB: ${mb(idle.rss.current)} (peak during start-up ${mb(idle.rss.peak)})`);
    console.log(memoryLine('server process tree idle (node + PostgreSQL)', idle.tree));
    if (config.warmup > 0) {
      const warm = await run(0, runs[0], config.warmup, 'warm-up');
      console.log(JSON.stringify({ ...warm, run: 'warm-up (not counted)' }));
    }
    for (const [i, clients] of config.clients.entries()) {
      console.log(
        JSON.stringify(await run(i + 1, clients, config.tests, `${clients} client${clients === 1 ? '' : 's'}`)),
      );
    }

    if (config.probes > 0) {
      // One message at a time on an idle server: the latency of a message when nothing is queued.
      const probeRun = runs.length - 1;
      const messages = await prepare(config.probes);
      const transport = transportFor(clientIp(probeRun, 0));
      const latencies: number[] = [];
      const probeIds: number[] = [];
      for (const m of messages) {
        // A random pause, so each message meets the worker (its 2 s poll, should the wake-up fail) and
        // the server's timers at a random point of their cycle.
        await sleep(Math.random() * 2000);
        const info = await transport.sendMail({ envelope: { from: `bounce@${SENDER_DOMAIN}`, to: m.to }, raw: m.raw });
        const acceptedAt = now();
        probeIds.push(...queuedIds(info.response));
        if (!(await waitForReports([m.testId], 60_000, 50))) throw new Error(`no report for probe test ${m.testId}`);
        const [report] = await queries.reports([m.testId]);
        latencies.push(report.createdAtMs - acceptedAt);
      }
      transport.close();
      latencies.sort((a, b) => a - b);
      const jobs = await queries.jobs(probeIds);
      console.log(
        JSON.stringify({
          run: 'serial probe (idle server)',
          messages: config.probes,
          'job run p50 ms': Math.round(jobs.runP50 ?? NaN),
          'report p50 ms': Math.round(percentile(latencies, 50)),
          'report p99 ms': Math.round(percentile(latencies, 99)),
          'report max ms': Math.round(latencies[latencies.length - 1]),
          'report min ms': Math.round(latencies[0]),
        }),
      );
    }
    console.log(memoryLine('server process tree after the runs', treeMemory(server.child.pid!)));
  } finally {
    rss.stop();
    await server.stop();
    await dns.close();
  }
}

/**
 * Where one message's database work goes, stage by stage: the PostgreSQL CPU of each client (pg-boss's job queue,
 * the app's queries, the bench's polling; "other" is the background processes and backends that ended during the
 * run, only known on the embedded server, whose processes are the server's children), the rows each table took
 * (rate_limits: receive; inbound_messages: store; pgboss.*: job queue; inbox_test*: the report and placement;
 * alerts and webhook tables: alerts), and the jobs of each queue.
 */
function stageBreakdown(
  messages: number,
  run: {
    postgresTotal: number;
    postgresByClient: Map<string, number>;
    writes: [string, number][];
    jobsByQueue: Map<string, number>;
  },
) {
  const perMessage = (n: number, digits = 2) => round(n / messages, digits);
  const byClient = Object.fromEntries(
    [...run.postgresByClient].map(([client, seconds]) => [client, perMessage(seconds * 1000)]),
  );
  const attributed = [...run.postgresByClient.values()].reduce((sum, seconds) => sum + seconds, 0);
  return {
    'postgres CPU ms/msg by client': {
      ...byClient,
      ...(run.postgresTotal > 0 ? { other: perMessage(Math.max(0, run.postgresTotal - attributed) * 1000) } : {}),
    },
    'db rows written/msg by table': Object.fromEntries(
      run.writes
        .filter(([, n]) => n > 0)
        .sort((a, b) => b[1] - a[1])
        .map(([table, n]) => [table, perMessage(n)]),
    ),
    'jobs/msg by queue': Object.fromEntries([...run.jobsByQueue].map(([queue, n]) => [queue, perMessage(n)])),
  };
}

/** The ten statements that took the most execution time during the run, per message, the query cut to 90 characters. */
function topStatements(messages: number, before: Map<string, StatementTotals>, after: Map<string, StatementTotals>) {
  return [...after]
    .map(([id, { query, calls, ms }]) => ({
      calls: calls - (before.get(id)?.calls ?? 0),
      ms: ms - (before.get(id)?.ms ?? 0),
      query: query.replace(/\s+/g, ' ').slice(0, 90),
    }))
    .filter((statement) => statement.calls > 0)
    .sort((a, b) => b.ms - a.ms)
    .slice(0, 10)
    .map(({ calls, ms, query }) => ({
      'calls/msg': round(calls / messages, 2),
      'ms/msg': round(ms / messages, 2),
      query,
    }));
}

const memoryLine = (label: string, m: TreeMemory) =>
  `${label}: PSS ${m.pssMb} MB (RSS ${m.rssMb} MB) over ${m.processes} processes`;

await orchestrate();
process.exit(0);
