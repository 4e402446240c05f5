// `npm run bench:events`: delivery events as an MTA posts them. Batches of 1,000 Postfix log lines
// (delivered, bounced and deferred, to Gmail, Yahoo, Outlook and company domains) are posted to
// POST /api/webhooks/postfix with a webhook token, by BENCH_CONCURRENCY shippers at once, for
// BENCH_SECONDS; every batch is new (its own queue ids), so every event is parsed, looked up (MX,
// from the resolver's cache after the first batch), stored, de-duplicated and added to email_metrics.
// Prints events/s stored and the p50/p99 time per batch, and the CPU time the app (node) and its
// database (postgres) spent per 1,000 events, which load from other work hardly moves. Before that,
// the parse time of 1,000 rows of each format on this event loop (what a batch costs the loop that
// answers HTTP).
// The app runs as production runs it: the compiled bundle (built when missing or stale), every role,
// LOG_LEVEL info, on the embedded PostgreSQL in a temp DATA_DIR (or DATABASE_URL), with a loopback
// DNS server answering the recipients' MX.
// Env: BENCH_SECONDS (default 20), BENCH_CONCURRENCY (default 4), BENCH_WARMUP_SECONDS (default 3), DATABASE_URL.
import { sql } from 'drizzle-orm';
import { parseBatch } from '../../server/delivery-events/delivery-events.service';
import { startDnsServer } from '../../server/test/dns-server';
import { startServer } from './bench-server';
import { cpuSince, treeCpuMs } from './process-cpu';

const seconds = Number(process.env.BENCH_SECONDS ?? 20);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 4);
const warmupSeconds = Number(process.env.BENCH_WARMUP_SECONDS ?? 3);
const BATCH = 1000;

const DOMAINS: [string, string][] = [
  ['gmail.com', 'gmail-smtp-in.l.google.com'],
  ['yahoo.com', 'mta5.am0.yahoodns.net'],
  ['outlook.com', 'outlook-com.olc.protection.outlook.com'],
  ['brand.example', 'aspmx.l.google.com'],
  ['corp.example', 'corp-example.mail.protection.outlook.com'],
  ['shop.example', 'mx.shop.example'],
];

const percentile = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))];

let sequence = 0;
/** 1,000 new Postfix lines: 90 % delivered, 6 % bounced, 4 % deferred, from two sending IPs' worth of queue ids. */
function postfixBatch(): string {
  const lines: string[] = [];
  const time = new Date(Date.now() - 5000).toISOString();
  for (let i = 0; i < BATCH; i++) {
    const n = sequence++;
    const queueId = `B${n.toString(36).padStart(11, '0')}`;
    const [domain, mx] = DOMAINS[n % DOMAINS.length];
    const to = `user${n}@${domain}`;
    const kind = n % 50;
    const outcome =
      kind < 3
        ? `dsn=5.1.1, status=bounced (host ${mx}[192.0.2.25] said: 550 5.1.1 <${to}>: Recipient address rejected: User unknown (in reply to RCPT TO command))`
        : kind < 5
          ? `dsn=4.7.0, status=deferred (host ${mx}[192.0.2.25] said: 421 4.7.0 [TSS04] Messages from 203.0.113.10 temporarily deferred (in reply to MAIL FROM command))`
          : `dsn=2.0.0, status=sent (250 2.0.0 OK  1705314225 d2e1a72fcca58-7d5f5b2c1b0si${n}pfb.12 - gsmtp)`;
    lines.push(
      `${time} mx1 postfix/smtp[2120]: ${queueId}: to=<${to}>, relay=${mx}[192.0.2.25]:25, delay=1.2, delays=0.1/0.01/0.5/0.59, ${outcome}`,
    );
  }
  return lines.join('\n');
}

/** 1,000 KumoMTA log records as NDJSON, for the parse timing. */
function kumoBatch(): string {
  const ts = Math.floor(Date.now() / 1000) - 5;
  return Array.from({ length: BATCH }, (_, i) =>
    JSON.stringify({
      type: i % 20 === 0 ? 'Bounce' : 'Delivery',
      id: `k${i}`,
      sender: 'news@mail.example.com',
      recipient: `user${i}@gmail.com`,
      queue: 'campaign:tenant@gmail.com',
      site: 'source2->(alt1|alt2)?.gmail-smtp-in.l.google.com.',
      size: 4211,
      response: {
        code: 250,
        enhanced_code: { class: 2, subject: 0, detail: 0 },
        content: 'OK 1705314225 - gsmtp',
        command: '.',
      },
      peer_address: { name: 'gmail-smtp-in.l.google.com.', addr: '142.250.102.27' },
      source_address: { address: '203.0.113.10:53210' },
      timestamp: ts,
      created: ts - 1,
      num_attempts: 0,
      bounce_classification: 'Uncategorized',
      egress_pool: 'pool0',
      egress_source: 'source2',
      meta: {},
      headers: {},
    }),
  ).join('\n');
}

function parseTimings() {
  const postfix = postfixBatch();
  const kumo = kumoBatch();
  const time = (f: () => unknown) => {
    for (let i = 0; i < 5; i++) f();
    const runs: number[] = [];
    for (let i = 0; i < 30; i++) {
      const started = performance.now();
      f();
      runs.push(performance.now() - started);
    }
    return { 'p50 ms': +percentile(runs, 50).toFixed(2), 'max ms': +Math.max(...runs).toFixed(2) };
  };
  console.log(JSON.stringify({ 'parse 1,000 Postfix lines': time(() => parseBatch('postfix', postfix)) }));
  console.log(JSON.stringify({ 'parse 1,000 KumoMTA records (NDJSON)': time(() => parseBatch('kumo', kumo)) }));
}

parseTimings();
const dns = await startDnsServer(
  Object.fromEntries(DOMAINS.map(([domain, mx]) => [domain, { MX: [{ exchange: mx, priority: 10 }] }])),
);
const server = await startServer({ LOG_LEVEL: process.env.LOG_LEVEL ?? 'info', DNS_SERVERS: dns.address }, 'events');
try {
  const base = server.appUrl;
  const origin = { origin: base };
  const email = `bench_${Date.now()}@example.com`;
  const reg = await fetch(`${base}/api/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...origin },
    body: JSON.stringify({ username: `bench_${Date.now()}`, email, password: 'bench password 1' }),
  });
  if (reg.status !== 200) throw new Error(`registration failed: ${reg.status} ${await reg.text()}`);
  const cookie = reg.headers.get('set-cookie')!.split(';')[0];
  // A sender shipping this much is on a plan without a monthly e-mail allowance (the free plan has one).
  await server.database.db.execute(sql`UPDATE users SET subscription_plan = 'professional' WHERE email = ${email}`);
  const tokenRes = await fetch(`${base}/api/webhook-tokens/generate`, {
    method: 'POST',
    headers: { cookie, ...origin },
  });
  const { token } = (await tokenRes.json()) as { token: string };

  const post = async (): Promise<{ ms: number; accepted: number }> => {
    const body = postfixBatch();
    const started = performance.now();
    const res = await fetch(`${base}/api/webhooks/postfix`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'text/plain' },
      body,
    });
    const answer = (await res.json()) as { accepted?: number; message?: string };
    if (res.status !== 200) throw new Error(`batch refused: ${res.status} ${answer.message}`);
    return { ms: performance.now() - started, accepted: answer.accepted ?? 0 };
  };
  const shipFor = async (durationMs: number) => {
    const until = performance.now() + durationMs;
    const times: number[] = [];
    let accepted = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (performance.now() < until) {
          const r = await post();
          times.push(r.ms);
          accepted += r.accepted;
        }
      }),
    );
    return { elapsed: (performance.now() - started) / 1000, times, accepted };
  };

  await shipFor(warmupSeconds * 1000);
  const cpuBefore = treeCpuMs(server.child.pid!);
  const shipperBefore = process.cpuUsage();
  const run = await shipFor(seconds * 1000);
  const cpu = cpuSince(cpuBefore, treeCpuMs(server.child.pid!));
  const shipper = process.cpuUsage(shipperBefore);
  console.log(
    `bench:events  batches of ${BATCH} Postfix lines, ${concurrency} shippers at once, ${seconds} s after ${warmupSeconds} s warm-up; ` +
      `database: ${process.env.DATABASE_URL ? 'PostgreSQL (DATABASE_URL)' : 'embedded PostgreSQL'}`,
  );
  console.log(
    JSON.stringify({
      batches: run.times.length,
      'events stored': run.accepted,
      'events/s': Math.round(run.accepted / run.elapsed),
      'p50 ms per batch': Math.round(percentile(run.times, 50)),
      'p99 ms per batch': Math.round(percentile(run.times, 99)),
    }),
  );
  // The cost of the work itself, which other load on the machine hardly moves (the rate above it does).
  const perThousand = (ms: number) => Math.round((ms * 1000) / Math.max(1, run.accepted));
  console.log(
    JSON.stringify({
      'CPU ms per 1,000 events': Object.fromEntries(Object.entries(cpu).map(([name, ms]) => [name, perThousand(ms)])),
      'CPU ms per 1,000 events, all': perThousand(Object.values(cpu).reduce((a, b) => a + b, 0)),
      // This process, making and posting the batches: the MTA's share, on the same cores.
      'CPU ms per 1,000 events, shippers': perThousand((shipper.user + shipper.system) / 1000),
    }),
  );
} finally {
  await server.stop();
  await dns.close();
}
process.exit(0);
