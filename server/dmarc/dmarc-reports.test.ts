import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture, LARGE_REPORT, truncatedReport } from './fixtures';
import { createTestApp, signUp, type TestApp } from '../test/test-app';
import { uploadReport } from './upload-client.test-support';
import { reportXml } from './report-xml.test-support';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { INBOUND_DOMAIN: 'Reports.Example.NET' } });
});
afterAll(() => t.close());

describe('one DMARC report: detail and delete', () => {
  it('shows a report with its busiest records first, capped at 500', async () => {
    const { client } = await signUp(t.app);
    const { reports } = (await uploadReport(t.app, client, fixture(LARGE_REPORT), { fileName: 'large.xml' })).json();
    const detail = (await client.get(`/api/dmarc/reports/${reports[0].id}`)).json();
    expect(detail).toMatchObject({ id: reports[0].id, orgName: 'accurateplastics.com', recordCount: 2286 });
    expect(detail.records).toHaveLength(500);
    const counts = detail.records.map((r: { count: number }) => r.count);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
    expect(detail.records[0]).toEqual({
      sourceIp: expect.any(String),
      count: expect.any(Number),
      disposition: expect.any(String),
      dkimResult: expect.any(String),
      spfResult: expect.any(String),
      headerFrom: expect.any(String),
      envelopeFrom: null,
      dkimAuth: expect.any(Array),
      spfAuth: expect.any(Array),
    });
  });

  it('shows a failed import with its error and no records', async () => {
    const { client } = await signUp(t.app);
    const { reports } = (await uploadReport(t.app, client, truncatedReport(), { fileName: 'bad.xml' })).json();
    const detail = (await client.get(`/api/dmarc/reports/${reports[0].id}`)).json();
    expect(detail).toMatchObject({
      status: 'failed',
      fileName: 'bad.xml',
      error: expect.stringMatching(/^The file is not valid XML/),
      records: [],
    });
  });

  it('deletes a report with its records, only for its owner', async () => {
    const owner = await signUp(t.app);
    const other = await signUp(t.app);
    const { reports } = (
      await uploadReport(t.app, owner.client, fixture('aggregate/rfc9990-sample.xml'), { fileName: 'r.xml' })
    ).json();
    const id = reports[0].id;
    expect((await other.client.get(`/api/dmarc/reports/${id}`)).statusCode).toBe(404);
    const foreign = await other.client.delete(`/api/dmarc/reports/${id}`);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual({ code: 'not_found', message: 'Report not found' });
    expect((await owner.client.delete(`/api/dmarc/reports/${id}`)).statusCode).toBe(204);
    expect((await owner.client.get(`/api/dmarc/reports/${id}`)).statusCode).toBe(404);
    expect((await owner.client.get('/api/dmarc/reports')).json().total).toBe(0);
    // Deleted, the same report can be imported again.
    expect(
      (await uploadReport(t.app, owner.client, fixture('aggregate/rfc9990-sample.xml'), { fileName: 'r.xml' })).json()
        .imported,
    ).toBe(1);
  });

  it('refuses a report id that is not a number', async () => {
    const { client } = await signUp(t.app);
    const res = await client.get('/api/dmarc/reports/abc');
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Report id must be a number');
  });
});

describe('upload rate limit', () => {
  it('answers 429 after 100 uploads in 10 minutes, per user', async () => {
    const busy = await signUp(t.app);
    for (let i = 0; i < 100; i++)
      expect((await uploadReport(t.app, busy.client, '', { fileName: `e${i}.xml` })).statusCode).toBe(200);
    const refused = await uploadReport(t.app, busy.client, '', { fileName: 'e.xml' });
    expect(refused.statusCode).toBe(429);
    expect(refused.json().message).toMatch(/^Too many attempts\. Please try again in 10 minutes\.$/);
    const other = await signUp(t.app);
    expect((await uploadReport(t.app, other.client, '', { fileName: 'e.xml' })).statusCode).toBe(200);
  });
});

describe('GET /api/dmarc/intake', () => {
  it('gives the report address on the inbound domain, for signed-in users only', async () => {
    const { client } = await signUp(t.app);
    expect((await client.get('/api/dmarc/intake')).json()).toEqual({
      reportAddress: 'dmarc@reports.example.net',
      mailboxPolled: false,
    });
    expect((await t.app.inject({ method: 'GET', url: '/api/dmarc/intake' })).statusCode).toBe(401);
  });
});

describe('GET /api/dmarc/report-domains', () => {
  it('lists the domains of the imported reports, latest first, for their owner only', async () => {
    const { client } = await signUp(t.app);
    const report = (domain: string, reportId: string, begin: string, count: number) =>
      reportXml({
        orgName: 'google.com',
        reportId,
        domain,
        begin: new Date(begin),
        records: [{ ip: '192.0.2.1', count, dkim: 'pass', spf: 'pass' }],
      });
    await uploadReport(t.app, client, report('example.de', 'de-1', '2025-03-01T00:00:00Z', 5), { fileName: 'de1.xml' });
    await uploadReport(t.app, client, report('example.de', 'de-2', '2025-03-03T00:00:00Z', 7), { fileName: 'de2.xml' });
    await uploadReport(t.app, client, report('brand.com', 'b-1', '2025-03-02T00:00:00Z', 11), { fileName: 'b.xml' });
    // A file that could not be read has no domain: it is not listed.
    await uploadReport(t.app, client, truncatedReport(), { fileName: 'bad.xml' });
    expect((await client.get('/api/dmarc/report-domains')).json()).toEqual({
      items: [
        { domain: 'example.de', reports: 2, messages: 12, lastReportAt: '2025-03-03T23:59:59.000Z' },
        { domain: 'brand.com', reports: 1, messages: 11, lastReportAt: '2025-03-02T23:59:59.000Z' },
      ],
    });
    const other = await signUp(t.app);
    expect((await other.client.get('/api/dmarc/report-domains')).json()).toEqual({ items: [] });
    expect((await t.app.inject({ method: 'GET', url: '/api/dmarc/report-domains' })).statusCode).toBe(401);
  });
});
