import { count, eq } from 'drizzle-orm';
import { strToU8, zipSync } from 'fflate';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runRetentionPurges } from '../platform/db/retention-purge';
import { dmarcReceivedFiles } from '../platform/db/schema/index';
import { createTestApp, signUp, type TestApp } from '../test/test-app';
import { dmarcRetention } from './dmarc.retention';
import { fixture, RECOVERED_FIXTURES, truncatedReport } from './fixtures';
import { ingestMailedReports } from './mailed-reports';
import { reportXml } from './report-xml.test-support';
import { uploadReport } from './upload-client.test-support';
import { verifiedOwnerOf } from './verified-owner.test-support';

/*
 * Issue 37, section 4: what parsedmarc recovers is stored, with a warning on the report; a report that cannot be
 * read at all is kept as received, listed as failed, and its owner can download it until it is purged.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const keptFiles = async (userId: number) =>
  (await t.database.db.select({ n: count() }).from(dmarcReceivedFiles).where(eq(dmarcReceivedFiles.userId, userId)))[0]
    .n;

describe('recovered reports', () => {
  // parsedmarc's samples/aggregate/invalid_utf_8.xml and invalid_xml.xml (report-fixtures/README.md).
  it.each(Object.entries(RECOVERED_FIXTURES))(
    'recovered/%s is stored, its warning on the report in the list, its page and the upload answer',
    async (name, expected) => {
      const { client } = await signUp(t.app);
      const res = await uploadReport(t.app, client, fixture(`recovered/${name}`), { fileName: name });
      expect(res.json()).toMatchObject({
        imported: 1,
        failed: [],
        warnings: [{ fileName: name, warning: expected.warning }],
      });
      const id = res.json().reports[0].id;
      const list = (await client.get('/api/dmarc/reports')).json();
      expect(list.items).toEqual([
        expect.objectContaining({ id, status: 'imported', recordCount: 1, warnings: [expected.warning] }),
      ]);
      const detail = (await client.get(`/api/dmarc/reports/${id}`)).json();
      expect(detail).toMatchObject({ warnings: [expected.warning], records: [expected.record] });
      expect(detail).not.toHaveProperty('rawKept');
    },
  );

  it('says nothing of warnings on a report read as written', async () => {
    const { client } = await signUp(t.app);
    const xml = reportXml({
      orgName: 'x.org',
      reportId: 'clean',
      domain: 'example.com',
      begin: new Date('2025-01-01T00:00:00Z'),
      records: [{ ip: '192.0.2.1', count: 1, dkim: 'pass', spf: 'pass' }],
    });
    const res = (await uploadReport(t.app, client, xml, { fileName: 'clean.xml' })).json();
    expect(res).not.toHaveProperty('warnings');
    expect(res.reports[0]).not.toHaveProperty('warnings');
  });
});

describe('a report that cannot be read is kept as received', () => {
  it('lists it as failed and gives its bytes, compressed as they came, to its owner only', async () => {
    const owner = await signUp(t.app);
    const gz = gzipSync(truncatedReport());
    const res = await uploadReport(t.app, owner.client, gz, { fileName: '../reports/cut "short".xml.gz' });
    expect(res.json()).toMatchObject({
      imported: 0,
      failed: [{ error: expect.stringMatching(/^The file is not valid XML/) }],
    });
    const id = res.json().reports[0].id;
    expect((await owner.client.get('/api/dmarc/reports?status=failed')).json().items).toEqual([
      expect.objectContaining({ id, status: 'failed', rawKept: true }),
    ]);

    const raw = await owner.client.get(`/api/dmarc/reports/${id}/raw`);
    expect(raw.statusCode).toBe(200);
    expect(raw.headers['content-type']).toBe('application/octet-stream');
    expect(raw.headers['content-disposition']).toBe('attachment; filename="cut_short_.xml.gz"');
    expect(Buffer.compare(raw.rawPayload, gz)).toBe(0);

    const stranger = await signUp(t.app);
    const theirs = await stranger.client.get(`/api/dmarc/reports/${id}/raw`);
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json()).toMatchObject({ message: 'No file was kept for this report' });
    expect((await owner.client.get('/api/dmarc/reports/not-a-number/raw')).statusCode).toBe(400);

    // Deleting the failed import deletes the file with it.
    expect((await owner.client.delete(`/api/dmarc/reports/${id}`)).statusCode).toBe(204);
    expect((await owner.client.get(`/api/dmarc/reports/${id}/raw`)).statusCode).toBe(404);
    expect(await keptFiles(owner.user.id)).toBe(0);
  });

  it('keeps a zip once however many of its reports fail, and keeps nothing of a report that imports', async () => {
    const owner = await signUp(t.app);
    const zip = zipSync({
      'a.xml': truncatedReport(),
      'b.xml': strToU8('not xml at all'),
      'c.xml': fixture('recovered/invalid_xml.xml'),
    });
    const res = (await uploadReport(t.app, owner.client, zip, { fileName: 'reports.zip' })).json();
    expect(res).toMatchObject({ imported: 1, failed: [{ fileName: 'a.xml' }, { fileName: 'b.xml' }] });
    expect(await keptFiles(owner.user.id)).toBe(1);
    const [a, b] = res.reports.filter((r: { status: string }) => r.status === 'failed');
    for (const report of [a, b]) {
      const raw = await owner.client.get(`/api/dmarc/reports/${report.id}/raw`);
      expect(Buffer.compare(raw.rawPayload, Buffer.from(zip))).toBe(0);
    }
    // The file stays while one failed import still came in it.
    await owner.client.delete(`/api/dmarc/reports/${a.id}`);
    expect((await owner.client.get(`/api/dmarc/reports/${b.id}/raw`)).statusCode).toBe(200);
  });

  it('is purged with the reports when the plan keeps them no longer', async () => {
    const owner = await signUp(t.app);
    await uploadReport(t.app, owner.client, truncatedReport(), { fileName: 'cut.xml' });
    expect(await keptFiles(owner.user.id)).toBe(1);
    const counts = await runRetentionPurges(t.database.db, dmarcRetention, owner.user.id, new Date(Date.now() + 1000));
    expect(counts).toMatchObject({ dmarc_reports: 1, dmarc_received_files: 1 });
    expect(await keptFiles(owner.user.id)).toBe(0);
  });

  it('keeps a mailed report that fails for the owner when its mail proved its reporter, not a stranger’s', async () => {
    const domain = 'kept-mail.example';
    const owner = await verifiedOwnerOf(t, domain);
    const whole = reportXml({
      orgName: 'reporter.example',
      reportId: 'cut-in-mail',
      domain,
      begin: new Date('2025-02-01T00:00:00Z'),
      records: [{ ip: '192.0.2.1', count: 1, dkim: 'pass', spf: 'pass' }],
    });
    // Cut inside its record: the header routes it, the rest cannot be read.
    const cut = Buffer.from(whole.slice(0, whole.indexOf('<count>')));
    const proven = await ingestMailedReports(t.database.db, cut, 'proven.xml', ['reporter.example']);
    expect(proven.status).toBe('processed');
    const forged = await ingestMailedReports(t.database.db, cut, 'forged.xml', []);
    expect(forged.status).toBe('processed');

    const items = (await owner.client.get('/api/dmarc/reports?status=failed')).json().items;
    const byName = Object.fromEntries(items.map((r: { fileName: string }) => [r.fileName, r]));
    expect(byName['proven.xml']).toMatchObject({ senderAuthenticated: true, rawKept: true });
    expect(byName['forged.xml']).toMatchObject({ senderAuthenticated: false });
    expect(byName['forged.xml']).not.toHaveProperty('rawKept');
    const raw = await owner.client.get(`/api/dmarc/reports/${byName['proven.xml'].id}/raw`);
    expect(raw.rawPayload.toString()).toBe(cut.toString());
    expect(await keptFiles(owner.user.id)).toBe(1);
  });
});
