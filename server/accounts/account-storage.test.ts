import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DMARC_RECORDS_PER_ACCOUNT } from '@contracts/account';
import { dmarcReports } from '../platform/db/schema/index';
import { fixture, LARGE_REPORT } from '../dmarc/fixtures';
import { reportXml } from '../dmarc/report-xml.test-support';
import { uploadReport } from '../dmarc/upload-client.test-support';
import { createTestApp, signUp, type TestApp } from '../test/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('what an account stores', () => {
  it("measures the user's own DMARC reports, and nobody else's", async () => {
    const owner = await signUp(t.app);
    const other = await signUp(t.app);
    expect((await owner.client.get('/api/account/storage')).json()).toEqual({
      dmarc: { reports: 0, records: 0, recordLimit: DMARC_RECORDS_PER_ACCOUNT, bytes: 0 },
    });
    await uploadReport(t.app, owner.client, fixture(LARGE_REPORT));
    const storage = (await owner.client.get('/api/account/storage')).json();
    expect(storage.dmarc).toMatchObject({ reports: 1, records: 2286 });
    // 2,286 rows of a source IP, counts, results and JSON auth results: well over 100 bytes each.
    expect(storage.dmarc.bytes).toBeGreaterThan(2286 * 100);
    expect((await other.client.get('/api/account/storage')).json().dmarc).toMatchObject({
      reports: 0,
      records: 0,
      bytes: 0,
    });
    expect((await t.app.inject({ method: 'GET', url: '/api/account/storage' })).statusCode).toBe(401);
  });

  it('keeps a report that would take the account past its record limit, with nothing older to make room, as a failed import, and stores nothing of it', async () => {
    const { client, user } = await signUp(t.app);
    // An account two records short of full (a report row stands for its records in the count).
    await t.database.db.insert(dmarcReports).values({
      userId: user.id,
      status: 'imported',
      fileName: 'old.xml',
      rawSize: 1,
      orgName: 'old.example',
      reportId: 'old-1',
      recordCount: DMARC_RECORDS_PER_ACCOUNT - 2,
    });
    const report = (records: number, reportId: string) =>
      reportXml({
        orgName: 'google.com',
        reportId,
        domain: 'example.com',
        begin: new Date(),
        records: Array.from({ length: records }, (_, i) => ({
          ip: `192.0.2.${i + 1}`,
          count: 1,
          dkim: 'pass' as const,
          spf: 'pass' as const,
        })),
      });
    const tooMany = (await uploadReport(t.app, client, report(3, 'three'))).json();
    expect(tooMany).toMatchObject({
      imported: 0,
      failed: [
        {
          error: expect.stringMatching(
            /^Your account keeps at most 1,000,000 DMARC report records and holds 999,998; this report has 3, and the reports older than it hold too few to make room\./,
          ),
        },
      ],
    });
    expect((await client.get('/api/account/storage')).json().dmarc).toMatchObject({
      reports: 2,
      records: DMARC_RECORDS_PER_ACCOUNT - 2,
    });
    expect((await uploadReport(t.app, client, report(2, 'two'))).json()).toMatchObject({ imported: 1 });
  });
});
