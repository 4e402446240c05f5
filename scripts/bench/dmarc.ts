// `npm run bench:dmarc`: parse and store the 900 KB, 2,286-record report from the fixtures
// again and again (each time under a new report id, so deduplication does not skip it). In the
// same run, for comparison: a bare saxes pass over the same text (the tokenizer the parser streams
// on, with nothing built: the floor of any parse on it) and a bare fast-xml-parser parse (the whole
// tree of objects the parser built before issue 11), plus the header-only read that routes mail.
// Env: BENCH_ITERATIONS (default 20), DATABASE_URL to bench a PostgreSQL server instead of the embedded one.
import { XMLParser } from 'fast-xml-parser';
import { SaxesParser } from 'saxes';
import { dmarcRecords, users } from '../../server/platform/db/schema/index';
import { storeReport } from '../../server/dmarc/dmarc.repo';
import { fixture, LARGE_REPORT } from '../../server/dmarc/fixtures';
import { parseAggregateReport, readReportHeader } from '../../server/dmarc/parse-aggregate';
import { openBenchDatabase } from './bench-database';

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
  let parseMs = 0;
  let saxesMs = 0;
  let treeMs = 0;
  let headerMs = 0;
  let storeMs = 0;
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
    const parsed = parseAggregateReport(copies[i]);
    const parseTime = performance.now() - started;
    if (!parsed.ok) throw new Error(parsed.error);

    started = performance.now();
    const stored = await storeReport(database.db, user.id, parsed.report, {
      fileName: LARGE_REPORT,
      rawSize: copies[i].length,
    });
    const storeTime = performance.now() - started;
    if (!stored) throw new Error('report was taken for a duplicate');

    if (i < warmup) continue;
    saxesMs += saxesTime;
    treeMs += treeTime;
    headerMs += headerTime;
    parseMs += parseTime;
    storeMs += storeTime;
    rows += parsed.report.records.length;
  }
  const storedRows = await database.db.$count(dmarcRecords);
  if (storedRows !== parsed2286(copies.length))
    throw new Error(`expected ${parsed2286(copies.length)} stored rows, found ${storedRows}`);

  const seconds = (parseMs + storeMs) / 1000;
  const kb = Math.round(original.length / 1024);
  console.log(
    `bench:dmarc  ${iterations} runs (after ${warmup} warm-up) of a ${kb} KB report with ${rows / iterations} records, database: ${database.label}`,
  );
  console.log(
    JSON.stringify({
      'reports/s': round(iterations / seconds),
      'rows/s': Math.round(rows / seconds),
      'parse ms': round(parseMs / iterations),
      'store ms': round(storeMs / iterations),
      'header read ms': round(headerMs / iterations),
      'bare saxes ms': round(saxesMs / iterations),
      'parse / bare saxes': round(parseMs / saxesMs),
      'bare fast-xml-parser tree ms': round(treeMs / iterations),
      'parse / bare fast-xml-parser': round(parseMs / treeMs),
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
