// `npm run bench:dmarc -- --records N`: one gzipped DMARC aggregate report of N records (report-file.ts:
// distinct source IPs, about 340 bytes a record) uploaded through POST /api/dmarc/upload to the production
// server (bench-server.ts: node dist/server.js on the embedded PostgreSQL, or DATABASE_URL), as a user
// uploads one. Meanwhile GET /api/user is probed every 100 ms on a new connection each time (as
// bench:hostile probes), and the PSS of node and PostgreSQL together (process-memory.ts) is sampled
// every 100 ms. Printed: rows stored/s over the upload, the probes' p50/p99/max, and the peak PSS, each
// against the goal of issue 37 (probe p99 <= 100 ms, peak PSS < 400 MB).
import { request } from 'node:http';
import { startServer } from './bench-server';
import { childrenByParent, treeMemory } from './process-memory';
import { aggregateReport } from './report-file';

const GOAL_P99_MS = 100;
const GOAL_PSS_MB = 400;
const DAY_MS = 24 * 3600 * 1000;

interface Answer {
  status: number;
  body: string;
  setCookie: string[];
  ms: number;
}

/** One HTTP request on a connection of its own. */
function call(url: string, init: { method?: string; headers?: Record<string, string>; body?: Buffer | string } = {}) {
  return new Promise<Answer>((resolve, reject) => {
    const started = performance.now();
    const req = request(url, { method: init.method ?? 'GET', headers: init.headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          body: Buffer.concat(chunks).toString(),
          setCookie: [res.headers['set-cookie'] ?? []].flat(),
          ms: performance.now() - started,
        }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(init.body);
  });
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

export async function benchLargeUpload(records: number): Promise<void> {
  if (!Number.isInteger(records) || records < 1) throw new Error('--records takes a whole number of records');
  console.log(`generating a report of ${records.toLocaleString('en-US')} records ...`);
  const report = aggregateReport('bench-large.test', `bench-${Date.now()}`, records, Date.now() - DAY_MS);
  const server = await startServer({ LOG_LEVEL: 'warn' }, 'dmarc');
  try {
    const { appUrl } = server;
    const username = `dmarc${Date.now()}`;
    const registered = await call(`${appUrl}/api/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: appUrl },
      body: JSON.stringify({ username, email: `${username}@example.com`, password: 'correct horse battery staple' }),
    });
    const cookie = registered.setCookie.map((c) => c.split(';')[0]).find((c) => c.startsWith('inboxpulse_session='));
    if (registered.status !== 200 || !cookie) throw new Error(`POST /api/register answered ${registered.status}`);

    const pid = server.child.pid!;
    // PostgreSQL's share: the process trees under the server's node process (the embedded server is its child).
    const postgresPss = () =>
      (childrenByParent().get(pid) ?? []).reduce((sum, child) => sum + treeMemory(child).pssMb, 0);
    let peakPss = treeMemory(pid).pssMb;
    const idlePss = peakPss;
    let atPeak = { postgres: postgresPss() };
    const probes: Promise<number>[] = [];
    const timer = setInterval(() => {
      const pss = treeMemory(pid).pssMb;
      if (pss > peakPss) {
        peakPss = pss;
        atPeak = { postgres: postgresPss() };
      }
      probes.push(
        call(`${appUrl}/api/user`, { headers: { cookie } }).then((a) => (a.status === 200 ? a.ms : Infinity)),
      );
    }, 100);
    const started = performance.now();
    const upload = await call(`${appUrl}/api/dmarc/upload?filename=${encodeURIComponent(report.fileName)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/gzip', cookie, origin: appUrl },
      body: report.gzip,
    });
    const uploadMs = performance.now() - started;
    clearInterval(timer);
    const probeMs = (await Promise.all(probes)).sort((a, b) => a - b);
    const answer = JSON.parse(upload.body) as { imported?: number; failed?: { error: string }[]; message?: string };
    const stored = await server.database.pool.query<{ n: string }>(
      'select count(*) as n from dmarc_records d join dmarc_reports r on r.id = d.report_id where r.report_id = $1',
      [report.reportId],
    );
    const rows = Number(stored.rows[0].n);
    const p99 = Math.round(percentile(probeMs, 99));
    console.log(
      `bench:dmarc --records ${records}: a ${(report.xmlBytes / 1024 / 1024).toFixed(0)} MB report (${(report.gzip.length / 1024 / 1024).toFixed(1)} MB gzip) uploaded once, database: ${process.env.DATABASE_URL ? 'DATABASE_URL' : 'embedded PostgreSQL'}`,
    );
    console.log(
      JSON.stringify({
        'HTTP status': upload.status,
        answer: answer.imported === 1 ? 'imported' : (answer.failed?.[0]?.error ?? answer.message),
        'rows stored': rows,
        'upload s': Math.round(uploadMs / 100) / 10,
        'rows stored/s': Math.round(rows / (uploadMs / 1000)),
        probes: probeMs.length,
        'probe p50 ms': Math.round(percentile(probeMs, 50)),
        'probe p99 ms': p99,
        'probe max ms': Math.round(probeMs[probeMs.length - 1]),
        'idle PSS MB (node + PostgreSQL)': idlePss,
        'peak PSS MB (node + PostgreSQL)': peakPss,
        'of which PostgreSQL at the peak': atPeak.postgres,
      }),
    );
    const meets = rows === records && p99 <= GOAL_P99_MS && peakPss < GOAL_PSS_MB;
    console.log(
      `${meets ? 'meets' : 'MISSES'} the goal (issue 37): all ${records} rows stored, probe p99 <= ${GOAL_P99_MS} ms, peak PSS < ${GOAL_PSS_MB} MB`,
    );
    if (!meets) process.exitCode = 1;
  } finally {
    await server.stop();
  }
}
