// `npm run bench:dmarc`: import (parse and store, streamed a batch at a time) the 900 KB, 2,286-record report
// from the fixtures again and again (each time under a new report id, so deduplication does not skip it). In the
// same run, for comparison: a bare saxes pass over the same text (the tokenizer the parser streams
// on, with nothing built: the floor of any parse on it) and a bare fast-xml-parser parse (the whole
// tree of objects the parser built before issue 11), plus the header-only read that routes mail.
// Env: BENCH_ITERATIONS (default 20), DATABASE_URL to bench a PostgreSQL server instead of the embedded one.
// `npm run bench:dmarc -- --records N`: one report of N records uploaded to the running server instead
// (dmarc-upload.ts).
import { XMLParser } from 'fast-xml-parser';
import { SaxesParser } from 'saxes';
import { dmarcRecords, users } from '../../server/platform/db/schema/index';
import { fixture, LARGE_REPORT } from '../../server/dmarc/fixtures';
import { importReport } from '../../server/dmarc/import-report';
import { readReportHeader } from '../../server/dmarc/parse-aggregate';
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
const copies = Array.from({ length: warmup + iterations }, (_, i) =>
  Buffer.from(text.replace(ID, `<report_id>bench-${i}</report_id>`)),
);

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

    if (i < warmup) continue;
    saxesMs += saxesTime;
    treeMs += treeTime;
    headerMs += headerTime;
    importMs += importTime;
    rows += outcome.report.recordCount;
  }
  const storedRows = await database.db.$count(dmarcRecords);
  if (storedRows !== parsed2286(copies.length))
    throw new Error(`expected ${parsed2286(copies.length)} stored rows, found ${storedRows}`);

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
} finally {
  await database.close();
}

function parsed2286(reports: number): number {
  return reports * 2286;
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}
