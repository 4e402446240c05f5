// `npm run bench:dmarc`: import (parse and store, streamed a batch at a time) the 900 KB, 2,286-record report
// from the fixtures again and again (each time under a new report id, so deduplication does not skip it). In the
// same run, for comparison: a bare saxes pass over the same text (the tokenizer the parser streams
// on, with nothing built: the floor of any parse on it) and a bare fast-xml-parser parse (the whole
// tree of objects the parser built before issue 11), plus the header-only read that routes mail.
// Where the import's time goes is printed per stage from a second, staged import of each copy (under its own report
// id), made of the same steps importReport takes: parse (the streamed read, records handed on a batch at a time),
// insert records (the batches into dmarc_records), sums and aggregates (finishReport: the report's totals and its
// dmarc_source_days, once per report) and commit; what the full import takes beyond their sum is its checks
// (duplicate, bounds, the account's cap) and the savepoint.
// Env: BENCH_ITERATIONS (default 20), DATABASE_URL to bench a PostgreSQL server instead of the embedded one.
// `npm run bench:dmarc -- --records N`: one report of N records uploaded to the running server instead
// (dmarc-upload.ts).
import { XMLParser } from 'fast-xml-parser';
import { SaxesParser } from 'saxes';
import type { AggregateRecord } from '../../server/dmarc/aggregate-report';
import { beginReport, finishReport, insertRecords, ReportTotals } from '../../server/dmarc/dmarc.repo';
import { fixture, LARGE_REPORT } from '../../server/dmarc/fixtures';
import { importReport } from '../../server/dmarc/import-report';
import { readReportHeader, streamAggregateReport } from '../../server/dmarc/parse-aggregate';
import type { Db } from '../../server/platform/db/client';
import { dmarcRecords, users } from '../../server/platform/db/schema/index';
import { openBenchDatabase } from './bench-database';
import { benchLargeUpload } from './dmarc-upload';

const recordsArg = process.argv.indexOf('--records');
if (recordsArg >= 0) {
  await benchLargeUpload(Number(process.argv[recordsArg + 1]));
  process.exit(0);
}

const iterations = Number(process.env.BENCH_ITERATIONS ?? 20);
const warmup = 3;
const original = fixture(LARGE_REPORT);
const text = original.toString('utf8');
const ID = '<report_id>example.com:1711897200</report_id>';
if (!text.includes(ID)) throw new Error('the large fixture changed: its report id was not found');
const copy = (id: string) => Buffer.from(text.replace(ID, `<report_id>${id}</report_id>`));
const copies = Array.from({ length: warmup + iterations }, (_, i) => copy(`bench-${i}`));
const stagedCopies = Array.from({ length: warmup + iterations }, (_, i) => copy(`staged-${i}`));
const stages = { parse: 0, 'insert records': 0, 'sums and aggregates': 0, commit: 0 };
type Stage = keyof typeof stages;

/** One staged import: the steps of importReport, each timed on its own (its checks left out). */
async function stagedImport(db: Db, userId: number, bytes: Buffer): Promise<Record<Stage, number>> {
  const times: Record<Stage, number> = { parse: 0, 'insert records': 0, 'sums and aggregates': 0, commit: 0 };
  let started = performance.now();
  const batches: AggregateRecord[][] = [];
  const read = await streamAggregateReport(bytes, {
    header: async () => true,
    records: async (batch) => void batches.push(batch),
  });
  times.parse = performance.now() - started;
  if (!read.ok) throw new Error(read.error);
  let committing = 0;
  await db.transaction(async (tx) => {
    const reportId = (await beginReport(tx, userId, read.header, { fileName: LARGE_REPORT, rawSize: bytes.length }))!;
    const totals = new ReportTotals();
    started = performance.now();
    for (const batch of batches) {
      await insertRecords(tx, reportId, batch);
      totals.add(batch);
    }
    times['insert records'] = performance.now() - started;
    started = performance.now();
    await finishReport(tx, reportId, totals, []);
    times['sums and aggregates'] = performance.now() - started;
    committing = performance.now();
  });
  times.commit = performance.now() - committing;
  return times;
}

const database = await openBenchDatabase();
try {
  const [user] = await database.db
    .insert(users)
    .values({ username: 'bench', email: 'bench@example.com', passwordHash: 'x' })
    .returning();
  const tree = new XMLParser();
  let importMs = 0;
  let saxesMs = 0;
  let treeMs = 0;
  let headerMs = 0;
  let rows = 0;
  for (let i = 0; i < copies.length; i++) {
    // Interleaved, so all parsers see the same machine load. The bare ones decode the bytes too, as the parser does.
    let started = performance.now();
    new SaxesParser().write(copies[i].toString('utf8')).close();
    const saxesTime = performance.now() - started;

    started = performance.now();
    tree.parse(copies[i].toString('utf8'));
    const treeTime = performance.now() - started;

    started = performance.now();
    const header = readReportHeader(copies[i]);
    const headerTime = performance.now() - started;
    if (!header.ok) throw new Error(header.error);

    started = performance.now();
    const outcome = await database.db.transaction((tx) =>
      importReport(tx, user.id, { bytes: copies[i] }, { fileName: LARGE_REPORT, rawSize: copies[i].length }),
    );
    const importTime = performance.now() - started;
    if (outcome.kind !== 'imported') throw new Error(`report was not imported: ${outcome.kind}`);

    const staged = await stagedImport(database.db, user.id, stagedCopies[i]);

    if (i < warmup) continue;
    for (const stage of Object.keys(stages) as Stage[]) stages[stage] += staged[stage];
    saxesMs += saxesTime;
    treeMs += treeTime;
    headerMs += headerTime;
    importMs += importTime;
    rows += outcome.report.recordCount;
  }
  const storedRows = await database.db.$count(dmarcRecords);
  if (storedRows !== parsed2286(copies.length + stagedCopies.length))
    throw new Error(`expected ${parsed2286(copies.length + stagedCopies.length)} stored rows, found ${storedRows}`);

  const seconds = importMs / 1000;
  const kb = Math.round(original.length / 1024);
  console.log(
    `bench:dmarc  ${iterations} runs (after ${warmup} warm-up) of a ${kb} KB report with ${rows / iterations} records, database: ${database.label}`,
  );
  console.log(
    JSON.stringify({
      'reports/s': round(iterations / seconds),
      'rows/s': Math.round(rows / seconds),
      'import (parse and store) ms': round(importMs / iterations),
      'header read ms': round(headerMs / iterations),
      'bare saxes ms': round(saxesMs / iterations),
      'bare fast-xml-parser tree ms': round(treeMs / iterations),
    }),
  );
  const stagedMs = Object.values(stages).reduce((sum, ms) => sum + ms, 0);
  console.log(
    JSON.stringify({
      'stages ms (a staged import of the same report)': Object.fromEntries(
        Object.entries(stages).map(([stage, ms]) => [stage, round(ms / iterations)]),
      ),
      'checks and savepoint ms (the import beyond the stages)': round((importMs - stagedMs) / iterations),
    }),
  );
} finally {
  await database.close();
}

function parsed2286(reports: number): number {
  return reports * 2286;
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}
