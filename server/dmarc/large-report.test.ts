import { count, eq, sql } from 'drizzle-orm';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DMARC_RECORDS_PER_ACCOUNT, UNAUTHENTICATED_RECORDS_PER_DOMAIN } from '@contracts/account';
import { dmarcRecords, dmarcReports, dmarcSourceDays } from '../platform/db/schema/index';
import { createTestApp, type TestApp } from '../test/test-app';
import { ingestMailedReports } from './mailed-reports';
import { RECORD_BATCH } from './parse-aggregate';
import { reportXml, type TestRecord } from './report-xml.test-support';
import { uploadReport } from './upload-client.test-support';
import { verifiedOwnerOf } from './verified-owner.test-support';

/*
 * Issue 37, section 4: a report of any size is stored, its records streamed into the database a batch at a
 * time; one that fails or passes a bound part-way leaves none of them.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const DAY = 24 * 3600 * 1000;
let serial = 0;

/** Record i: its own source IP, i % 7 + 1 messages, DKIM passing on every third. */
const record = (i: number): TestRecord => ({
  ip: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
  count: 1 + (i % 7),
  dkim: i % 3 === 0 ? 'pass' : 'fail',
  spf: 'fail',
});

const largeReport = (records: number, orgName = 'google.com', brokenAt?: number) =>
  reportXml({
    orgName,
    reportId: `large-${++serial}`,
    domain: 'big.test',
    begin: new Date(Date.now() - DAY),
    records: Array.from({ length: records }, (_, i) =>
      i + 1 === brokenAt ? { ...record(i), ip: 'not-an-ip' } : record(i),
    ),
  });

async function stored(userId: number) {
  const [records] = await t.database.db
    .select({ n: count() })
    .from(dmarcRecords)
    .innerJoin(dmarcReports, eq(dmarcRecords.reportId, dmarcReports.id))
    .where(eq(dmarcReports.userId, userId));
  const [sums] = await t.database.db
    .select({ messages: sql<number>`coalesce(sum(${dmarcSourceDays.total}), 0)::float8` })
    .from(dmarcSourceDays)
    .where(eq(dmarcSourceDays.userId, userId));
  return { records: records.n, messagesInAnalytics: sums.messages };
}

describe('a report of more than 50,000 records', () => {
  it('is stored whole, its sums added once, making room in the account as it grows', async () => {
    const records = 60_000;
    const { client, user } = await verifiedOwnerOf(t, 'big.test');
    // The account is 30,000 records short of its cap: the report's later batches need the oldest report gone.
    await t.database.db.insert(dmarcReports).values({
      userId: user.id,
      status: 'imported',
      fileName: 'old.xml',
      rawSize: 1,
      domain: 'big.test',
      orgName: 'old.example',
      reportId: 'old',
      dateBegin: new Date(Date.now() - 100 * DAY),
      recordCount: DMARC_RECORDS_PER_ACCOUNT - 30_000,
    });
    const gzip = gzipSync(largeReport(records));
    const res = await uploadReport(t.app, client, gzip, { contentType: 'application/gzip', fileName: 'big.xml.gz' });
    const messages = Array.from({ length: records }, (_, i) => record(i).count).reduce((a, b) => a + b, 0);
    const passes = Array.from({ length: records }, (_, i) => (i % 3 === 0 ? record(i).count : 0)).reduce(
      (a, b) => a + b,
      0,
    );
    expect(res.json()).toMatchObject({
      imported: 1,
      failed: [],
      reports: [{ recordCount: records, messageCount: messages, passCount: passes }],
    });
    expect(await stored(user.id)).toEqual({ records, messagesInAnalytics: messages });
    const kept = (await client.get('/api/dmarc/reports')).json().items.map((r: { orgName: string }) => r.orgName);
    expect(kept).toEqual(['google.com']);
    expect((await client.get('/api/alerts')).json()).toEqual([
      expect.objectContaining({
        title: 'Old DMARC reports removed to make room',
        message: expect.stringContaining(
          `most recently 1 (${(DMARC_RECORDS_PER_ACCOUNT - 30_000).toLocaleString('en-US')} records)`,
        ),
      }),
    ]);
  });

  it('that fails after batches were stored leaves none of its records, and is kept as a failed import', async () => {
    const { client, user } = await verifiedOwnerOf(t, 'big.test');
    const brokenAt = 11 * RECORD_BATCH + 1;
    const res = await uploadReport(t.app, client, gzipSync(largeReport(60_000, 'google.com', brokenAt)), {
      contentType: 'application/gzip',
    });
    expect(res.json()).toMatchObject({
      imported: 0,
      failed: [{ error: `Record ${brokenAt}: "not-an-ip" is not an IP address (row/source_ip).` }],
    });
    expect(await stored(user.id)).toEqual({ records: 0, messagesInAnalytics: 0 });
    expect((await client.get('/api/dmarc/reports?status=imported')).json().total).toBe(0);
  });

  it('is held to a mailed report bound as its count grows: refused with its whole count, nothing of it stored', async () => {
    const { client, user } = await verifiedOwnerOf(t, 'big.test');
    const records = UNAUTHENTICATED_RECORDS_PER_DOMAIN + 1;
    const xml = largeReport(records, 'yahoo.com');
    // Under the byte allowance, so only its records, known as they are read, pass the bound.
    const outcome = await ingestMailedReports(t.database.db, Buffer.from(xml), 'big.xml', []);
    expect(outcome.result).toContain(
      `failed for user ${user.id}: Not stored: its mail did not prove it came from yahoo.com`,
    );
    const [refused] = (await client.get('/api/dmarc/reports?status=failed')).json().items;
    expect(refused.error).toContain(
      `they hold 0 records and 0.0 MB, and this one has ${records.toLocaleString('en-US')} records and ${(xml.length / 1024 / 1024).toFixed(1)} MB.`,
    );
    expect(await stored(user.id)).toEqual({ records: 0, messagesInAnalytics: 0 });
  });
});
