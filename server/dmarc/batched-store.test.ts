import { and, asc, count, eq, isNull } from 'drizzle-orm';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dmarcRecords, dmarcReports, dmarcSourceDays } from '../platform/db/schema/index';
import { createTestApp, type TestApp } from '../test/test-app';
import { passesDmarc, type AggregateRecord } from './aggregate-report';
import { parseAggregateReport, RECORD_BATCH } from './parse-aggregate';
import { reportXml, type TestRecord } from './report-xml.test-support';
import { uploadReport } from './upload-client.test-support';
import { verifiedOwnerOf } from './verified-owner.test-support';

/*
 * Issue 39, section 3: records go in a batch at a time, one statement of column arrays each (dmarc.repo.ts
 * insertRecords), and a report's sums and analytics are added once, from its stored rows. What is stored must be
 * what was read, field for field; the sums must be those of the rows; a report the database refuses part-way
 * leaves nothing.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const begin = new Date(Date.UTC(2026, 10, 20));
const DISPOSITIONS = ['none', 'quarantine', 'reject'];

/** Record i: source IPs repeat (so records of different batches add up in one analytics row), results are mixed. */
const record = (i: number): TestRecord => ({
  ip: `10.1.${(i % 3001) >> 8}.${(i % 3001) & 255}`,
  count: 1 + (i % 11),
  disposition: DISPOSITIONS[i % 3],
  dkim: i % 4 === 0 ? 'pass' : 'fail',
  spf: i % 5 === 0 ? 'pass' : 'fail',
  // Raw passes that are not aligned: the analytics count them as failed "misaligned".
  dkimAuth: i % 2 === 0 ? [{ domain: 'esp.example', result: 'pass' }] : [],
  spfAuth: i % 7 === 0 ? [{ domain: 'bounce.esp.example', result: 'pass' }] : [{ domain: 'big.test', result: 'fail' }],
});

const report = (reportId: string, records: number, from = 0) =>
  reportXml({
    orgName: 'google.com',
    reportId,
    domain: 'big.test',
    begin,
    records: Array.from({ length: records }, (_, i) => record(from + i)),
  });

function parsed(xml: string): AggregateRecord[] {
  const result = parseAggregateReport(xml);
  if (!result.ok) throw new Error(result.error);
  return result.report.records;
}

/** The analytics' rows, summed from records as the analytics define them (dmarc.repo.ts addToSourceDays). */
function sourceDaysOf(records: AggregateRecord[]) {
  const rows = new Map<string, { total: number; spf: number; dkim: number; failed: number; misaligned: number }>();
  for (const r of records) {
    const key = `${r.sourceIp} ${r.disposition}`;
    const row = rows.get(key) ?? { total: 0, spf: 0, dkim: 0, failed: 0, misaligned: 0 };
    const failed = !passesDmarc(r);
    const rawPass = [...r.dkimAuth, ...r.spfAuth].some((a) => a.result === 'pass');
    row.total += r.count;
    if (r.spfResult === 'pass') row.spf += r.count;
    if (r.dkimResult === 'pass') row.dkim += r.count;
    if (failed) row.failed += r.count;
    if (failed && rawPass) row.misaligned += r.count;
    rows.set(key, row);
  }
  return Object.fromEntries(rows);
}

async function storedSourceDays(userId: number) {
  const rows = await t.database.db.select().from(dmarcSourceDays).where(eq(dmarcSourceDays.userId, userId));
  return Object.fromEntries(
    rows.map((r) => {
      expect({ day: r.day, domain: r.domain }).toEqual({ day: '2026-11-20', domain: 'big.test' });
      const sums = {
        total: r.total,
        spf: r.spfAligned,
        dkim: r.dkimAligned,
        failed: r.failed,
        misaligned: r.failedMisaligned,
      };
      return [`${r.sourceIp} ${r.disposition}`, sums];
    }),
  );
}

async function storedRecords(reportId: number): Promise<AggregateRecord[]> {
  const rows = await t.database.db
    .select()
    .from(dmarcRecords)
    .where(eq(dmarcRecords.reportId, reportId))
    .orderBy(asc(dmarcRecords.id));
  return rows.map(({ id: _id, reportId: _report, ...record }) => record);
}

describe('records stored a batch at a time', () => {
  it('are stored as read, field for field, and a report of several batches has the sums of its rows', async () => {
    const { client, user } = await verifiedOwnerOf(t, 'big.test');
    const size = 2 * RECORD_BATCH + 123;
    const xml = report('several-batches', size);
    const res = await uploadReport(t.app, client, gzipSync(xml), { contentType: 'application/gzip' });
    expect(res.statusCode).toBe(200);
    const [stored] = res.json().reports;
    const read = parsed(xml);
    expect(await storedRecords(stored.id)).toEqual(read);
    const messages = read.reduce((sum, r) => sum + r.count, 0);
    const passes = read.filter(passesDmarc).reduce((sum, r) => sum + r.count, 0);
    expect(stored).toMatchObject({ recordCount: size, messageCount: messages, passCount: passes });
    expect(await storedSourceDays(user.id)).toEqual(sourceDaysOf(read));

    // A second report of the same day adds to the same rows of the analytics, once.
    const second = report('second', 500, 1000);
    const res2 = await uploadReport(t.app, client, second);
    expect(res2.json()).toMatchObject({ imported: 1 });
    expect(await storedSourceDays(user.id)).toEqual(sourceDaysOf([...read, ...parsed(second)]));
  });

  it('keeps quotes, backslashes, braces, commas, non-ASCII text and absent fields exactly', async () => {
    const { client } = await verifiedOwnerOf(t, 'big.test');
    const human = 'said &quot;no, {not} \\ this&quot; – überprüft NULL';
    const xml = report('characters', 3)
      .replace('<result>pass</result></dkim>', `<result>pass</result><human_result>${human}</human_result></dkim>`)
      .replace('<result>pass</result></spf>', '<result>pass</result><human_result>NULL</human_result></spf>');
    const read = parsed(xml);
    expect(read[0].dkimAuth[0].humanResult).toBe('said "no, {not} \\ this" – überprüft NULL');
    expect(read[0].spfAuth[0].humanResult).toBe('NULL');
    const [stored] = (await uploadReport(t.app, client, xml)).json().reports;
    expect(await storedRecords(stored.id)).toEqual(read);
    // An absent reason is SQL NULL, not the JSON null that reads back the same.
    const [absent] = await t.database.db
      .select({ n: count() })
      .from(dmarcRecords)
      .where(and(eq(dmarcRecords.reportId, stored.id), isNull(dmarcRecords.reason)));
    expect(absent.n).toBe(read.filter((r) => r.reason === null).length);
    expect(absent.n).toBe(3);
  });
});

describe('a report the database refuses part-way', () => {
  it('leaves nothing of it: no report, no records, no sums, and what was stored before is untouched', async () => {
    const { client, user } = await verifiedOwnerOf(t, 'big.test');
    const before = report('before', 100);
    expect((await uploadReport(t.app, client, before)).json()).toMatchObject({ imported: 1 });
    const analyticsBefore = await storedSourceDays(user.id);

    // The database fails on the report's second batch, after its first was stored, as a full disk or a lost
    // connection would: a statement trigger counts the upload transaction's inserts of records.
    await t.database.pool.query(`
      create function refuse_second_batch() returns trigger language plpgsql as $$
      begin
        if current_setting('test.batches', true) = '1' then
          raise exception 'refused for the test';
        end if;
        perform set_config('test.batches', '1', true);
        return null;
      end $$;
      create trigger refuse_second_batch before insert on dmarc_records
        for each statement execute function refuse_second_batch();`);
    try {
      const res = await uploadReport(t.app, client, gzipSync(report('refused', 2 * RECORD_BATCH)), {
        contentType: 'application/gzip',
      });
      expect(res.statusCode).toBe(500);
      expect(res.json().message).not.toContain('refused for the test');
    } finally {
      await t.database.pool.query(
        'drop trigger refuse_second_batch on dmarc_records; drop function refuse_second_batch();',
      );
    }
    const reports = await t.database.db
      .select({ reportId: dmarcReports.reportId, records: count(dmarcRecords.id) })
      .from(dmarcReports)
      .leftJoin(dmarcRecords, eq(dmarcRecords.reportId, dmarcReports.id))
      .where(eq(dmarcReports.userId, user.id))
      .groupBy(dmarcReports.id);
    expect(reports).toEqual([{ reportId: 'before', records: 100 }]);
    expect(await storedSourceDays(user.id)).toEqual(analyticsBefore);
  });
});
