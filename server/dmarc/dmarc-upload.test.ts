import { count, eq, sql } from 'drizzle-orm';
import { zipSync } from 'fflate';
import MailComposer from 'nodemailer/lib/mail-composer';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dmarcRecords, dmarcReports, domains } from '../platform/db/schema/index';
import { AGGREGATE_FIXTURES, fixture, INVALID_FIXTURES } from './fixtures';
import { createTestApp, signUp, TestClient, type TestApp } from '../test/test-app';
import { uploadReport } from './upload-client.test-support';
import { reportXml } from './report-xml.test-support';
import { ingestMailedReports } from './mailed-reports';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const typeFor = (name: string) =>
  name.endsWith('.gz') ? 'application/gzip' : name.endsWith('.zip') ? 'application/zip' : 'application/xml';

async function storedCounts(userId: number) {
  const [reports] = await t.database.db
    .select({ n: count() })
    .from(dmarcReports)
    .where(eq(dmarcReports.userId, userId));
  const [records] = await t.database.db
    .select({ n: count() })
    .from(dmarcRecords)
    .innerJoin(dmarcReports, eq(dmarcRecords.reportId, dmarcReports.id))
    .where(eq(dmarcReports.userId, userId));
  return { reports: reports.n, records: records.n };
}

describe('POST /api/dmarc/upload with the real-world reports', () => {
  it.each(Object.entries(AGGREGATE_FIXTURES))(
    'imports aggregate/%s with its exact record count',
    async (name, expected) => {
      const { client, user } = await signUp(t.app);
      const res = await uploadReport(t.app, client, fixture(`aggregate/${name}`), {
        contentType: typeFor(name),
        fileName: name,
      });
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body).toMatchObject({ imported: 1, duplicates: 0, failed: [] });
      expect(body.reports).toHaveLength(1);
      expect(body.reports[0]).toMatchObject({
        status: 'imported',
        error: null,
        orgName: expected.orgName,
        reportId: expected.reportId,
        domain: expected.domain,
        recordCount: expected.records,
        messageCount: expected.messages,
        passCount: expected.passed,
      });
      expect(await storedCounts(user.id)).toEqual({ reports: 1, records: expected.records });
    },
  );

  it('stores each record as the report says, optional parts as NULL', async () => {
    const { client } = await signUp(t.app);
    const id = (await uploadReport(t.app, client, fixture('aggregate/empty_reason.xml'))).json().reports[0].id;
    const records = await t.database.db.select().from(dmarcRecords).where(eq(dmarcRecords.reportId, id));
    expect(records).toEqual([
      {
        id: expect.any(Number),
        reportId: id,
        sourceIp: '198.51.100.123',
        count: 2,
        disposition: 'none',
        dkimResult: 'pass',
        spfResult: 'fail',
        headerFrom: 'example.com',
        envelopeFrom: 'example.edu',
        envelopeTo: 'example.net',
        dkimAuth: [{ domain: 'example.com', selector: 'example', result: 'pass', humanResult: '2048-bit key' }],
        spfAuth: [{ domain: 'example.edu', scope: 'mfrom', result: 'pass', humanResult: null }],
        reason: null,
      },
    ]);
    const [nulls] = await t.database.db
      .select({
        reasonIsNull: sql<boolean>`${dmarcRecords.reason} is null`,
        toIsNull: sql<boolean>`${dmarcRecords.envelopeTo} is null`,
      })
      .from(dmarcRecords)
      .innerJoin(dmarcReports, eq(dmarcRecords.reportId, dmarcReports.id))
      .where(eq(dmarcReports.reportId, 'b043f0e264cf4ea995e93765242f6dfb'));
    expect(nulls).toEqual({ reasonIsNull: true, toIsNull: true });
  });

  it('counts a second upload of the same report as a duplicate, per user', async () => {
    const alice = await signUp(t.app);
    const bob = await signUp(t.app);
    const file = fixture('aggregate/usssa.com!example.com!1538784000!1538870399.xml');
    expect((await uploadReport(t.app, alice.client, file)).json()).toMatchObject({ imported: 1, duplicates: 0 });
    // A stored report asks for an evaluation of the DMARC failure conditions; a duplicate asks for none.
    expect(await queuedEvaluations(alice.user.id)).toBe(1);
    await t.database.pool.query(`delete from pgboss.job where name = 'evaluate-alerts'`);
    // Same report, compressed this time: still the same report.
    const again = await uploadReport(t.app, alice.client, gzipSync(file), { contentType: 'application/gzip' });
    expect(again.json()).toEqual({ imported: 0, duplicates: 1, failed: [], reports: [] });
    expect(await queuedEvaluations(alice.user.id)).toBe(0);
    expect(await storedCounts(alice.user.id)).toEqual({ reports: 1, records: 2 });
    expect((await uploadReport(t.app, bob.client, file)).json()).toMatchObject({ imported: 1, duplicates: 0 });
  });

  it('imports the reports attached to an e-mail (message/rfc822)', async () => {
    const { client, user } = await signUp(t.app);
    const zipName = 'estadocuenta1.infonacot.gob.mx!example.com!1536853302!1536939702!2940.xml.zip';
    const mail = await new MailComposer({
      from: 'dmarc-noreply@reporter.example',
      to: 'rua@example.com',
      subject: 'Report domain: example.com Submitter: reporter.example',
      text: 'This is an aggregate report.',
      attachments: [
        { filename: zipName, content: fixture(`aggregate/${zipName}`), contentType: 'application/zip' },
        {
          filename: 'rfc9990-sample.xml',
          content: fixture('aggregate/rfc9990-sample.xml'),
          contentType: 'application/xml',
        },
      ],
    })
      .compile()
      .build();
    const res = await uploadReport(t.app, client, mail, { contentType: 'message/rfc822', fileName: 'report.eml' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ imported: 2, duplicates: 0, failed: [] });
    expect(
      res.json().reports.map((r: { reportId: string; recordCount: number }) => [r.reportId, r.recordCount]),
    ).toEqual([
      ['2940', 1],
      ['3v98abbp8ya9n3va8yr8oa3ya', 1],
    ]);
    expect(await storedCounts(user.id)).toEqual({ reports: 2, records: 2 });
  });

  it.each(Object.entries(INVALID_FIXTURES))(
    'invalid/%s gives its clear error, kept as a failed import',
    async (name, error) => {
      const { client, user } = await signUp(t.app);
      const res = await uploadReport(t.app, client, fixture(`invalid/${name}`), { fileName: name });
      expect(res.statusCode).toBe(200);
      if (error === null) {
        expect(res.json()).toMatchObject({
          imported: 1,
          failed: [],
          reports: [{ status: 'imported', passCount: 1, compliance: 100 }],
        });
        return;
      }
      expect(res.json()).toMatchObject({
        imported: 0,
        duplicates: 0,
        failed: [{ fileName: name, error: expect.stringMatching(error) }],
      });
      const list = (await client.get('/api/dmarc/reports?status=failed')).json();
      expect(list.total).toBe(1);
      expect(list.items[0]).toMatchObject({
        status: 'failed',
        fileName: name,
        error: expect.stringMatching(error),
        orgName: null,
        recordCount: 0,
        policyPublished: null,
      });
      expect(await storedCounts(user.id)).toEqual({ reports: 1, records: 0 });
    },
  );

  it('keeps a failure report e-mail as a failed import that says what it is', async () => {
    const { client } = await signUp(t.app);
    const res = await uploadReport(t.app, client, fixture('failure/dmarc_ruf_report_linkedin.eml'), {
      contentType: 'message/rfc822',
      fileName: 'ruf.eml',
    });
    expect(res.json().failed).toEqual([
      {
        fileName: 'ruf.eml',
        error: expect.stringMatching(
          /^The e-mail is a DMARC failure report \(RFC 9991\) for example\.com from 10\.10\.10\.10 /,
        ),
      },
    ]);
  });

  it('keeps a report with a 9 MB report_id as a failed import that names the field, storing none of it', async () => {
    const { client, user } = await signUp(t.app);
    const xml = reportXml({
      orgName: 'x.org',
      reportId: 'r1',
      domain: 'example.com',
      begin: new Date('2024-01-01T00:00:00Z'),
      records: [],
    }).replace('<report_id>r1</report_id>', `<report_id>${'9'.repeat(9 * 1024 * 1024)}</report_id>`);
    const res = await uploadReport(t.app, client, xml, { fileName: 'huge-id.xml' });
    expect(res.statusCode).toBe(200);
    expect(res.json().failed).toEqual([
      {
        fileName: 'huge-id.xml',
        error: expect.stringContaining('report_id (report_metadata/report_id) is longer than 1,024 characters'),
      },
    ]);
    expect((await storedCounts(user.id)).records).toBe(0);
  });

  it('refuses an entity-expansion document quickly and stores none of its content', async () => {
    const { client } = await signUp(t.app);
    const levels = Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i};`.repeat(10)}">`).join('');
    const bomb = `<?xml version="1.0"?><!DOCTYPE feedback [<!ENTITY lol0 "lol">${levels}]><feedback>&lol9;</feedback>`;
    const started = performance.now();
    const res = await uploadReport(t.app, client, bomb, { fileName: 'lol.xml' });
    // Expanding it would take minutes and gigabytes; a busy machine's pauses are far below this bound.
    expect(performance.now() - started).toBeLessThan(5000);
    expect(res.json()).toMatchObject({
      imported: 0,
      failed: [{ fileName: 'lol.xml', error: expect.stringMatching(/DOCTYPE or ENTITY/) }],
    });
  });

  it('refuses a gzip bomb with 413 and stores nothing, not even the good reports beside it', async () => {
    const { client, user } = await signUp(t.app);
    // Members of 64 MB each, 576 MB in all: the test holds none of it.
    const bomb = Buffer.concat(Array(9).fill(gzipSync(Buffer.alloc(64 * 1024 * 1024))));
    const res = await uploadReport(t.app, client, bomb, { contentType: 'application/gzip', fileName: 'bomb.xml.gz' });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({
      code: 'payload_too_large',
      message: 'The upload expands to more than 512 MB when decompressed. It was refused and nothing was stored.',
    });
    const mixed = zipSync(
      { 'good.xml': fixture('aggregate/veeam.com!example.com!1530133200!1530219600.xml'), 'bomb.xml': bomb },
      { level: 0 },
    );
    const mixedRes = await uploadReport(t.app, client, mixed, { contentType: 'application/zip' });
    expect(mixedRes.statusCode, mixedRes.body).toBe(413);
    expect(await storedCounts(user.id)).toEqual({ reports: 0, records: 0 });
  });

  it('refuses uploads over 10 MB with 413, and other content types with 415', async () => {
    const { client, user } = await signUp(t.app);
    const big = await uploadReport(t.app, client, Buffer.alloc(10 * 1024 * 1024 + 1, 'a'), {
      contentType: 'application/octet-stream',
    });
    expect(big.statusCode).toBe(413);
    expect(big.json()).toEqual({
      code: 'payload_too_large',
      message: 'The file is too large: uploads are limited to 10 MB.',
    });
    const json = await uploadReport(t.app, client, '{"a":1}', { contentType: 'application/json' });
    expect(json.statusCode).toBe(415);
    expect(json.json().message).toMatch(/^Send the report file itself as the request body/);
    expect((await uploadReport(t.app, client, 'hello', { contentType: 'text/plain' })).statusCode).toBe(415);
    const nothing = await t.app.inject({
      method: 'POST',
      url: '/api/dmarc/upload',
      headers: { cookie: client.cookie! },
    });
    expect(nothing.statusCode).toBe(400);
    expect(nothing.json().message).toMatch(/^Send the report file itself/);
    expect(await storedCounts(user.id)).toEqual({ reports: 0, records: 0 });
    // The rest of the API still takes only JSON.
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/login',
          headers: { 'content-type': 'application/xml' },
          payload: '<x/>',
        })
      ).statusCode,
    ).toBe(415);
  });

  it('refuses signed-out callers before reading the file', async () => {
    const res = await uploadReport(t.app, undefined, fixture('aggregate/rfc9990-sample.xml'));
    expect(res.statusCode).toBe(401);
    expect((await new TestClient(t.app).get('/api/dmarc/reports')).statusCode).toBe(401);
    expect((await new TestClient(t.app).get('/api/dmarc/analytics')).statusCode).toBe(401);
  });

  it('never half-stores a report: a failing record insert rolls the report back', async () => {
    const { client, user } = await signUp(t.app);
    // A trigger stands in for a failure half-way (disk full, connection lost) after the report row went in.
    await t.database.pool.query(`
      CREATE FUNCTION dmarc_test_fail() RETURNS trigger AS $$ BEGIN
        IF NEW.source_ip = '192.0.2.250' THEN RAISE EXCEPTION 'simulated failure'; END IF; RETURN NEW; END $$ LANGUAGE plpgsql;
      CREATE TRIGGER dmarc_test_fail BEFORE INSERT ON dmarc_records FOR EACH ROW EXECUTE FUNCTION dmarc_test_fail();`);
    try {
      const xml = fixture('aggregate/usssa.com!example.com!1538784000!1538870399.xml')
        .toString()
        .replace('199.230.200.36', '192.0.2.250');
      expect((await uploadReport(t.app, client, xml)).statusCode).toBe(500);
      expect(await storedCounts(user.id)).toEqual({ reports: 0, records: 0 });
    } finally {
      await t.database.pool.query('DROP TRIGGER dmarc_test_fail ON dmarc_records; DROP FUNCTION dmarc_test_fail();');
    }
  });
});

describe('GET /api/dmarc/reports', () => {
  let client: TestClient;
  beforeAll(async () => {
    ({ client } = await signUp(t.app));
    for (const name of [
      'veeam.com!example.com!1530133200!1530219600.xml',
      'ikea.com!example.de!1538690400!1538776800.xml',
      'fastmail.com!example.com!1516060800!1516147199!102675056.xml.gz',
    ]) {
      expect(
        (
          await uploadReport(t.app, client, fixture(`aggregate/${name}`), {
            contentType: typeFor(name),
            fileName: name,
          })
        ).json().imported,
      ).toBe(1);
    }
    await uploadReport(t.app, client, 'garbage', { fileName: 'garbage.xml' });
  });

  const ids = async (query: string) => {
    const res = await client.get(`/api/dmarc/reports${query}`);
    expect(res.statusCode).toBe(200);
    return {
      total: res.json().total as number,
      orgs: res.json().items.map((r: { orgName: string | null }) => r.orgName),
    };
  };

  it('lists the newest report period first, failed imports by upload time, in pages', async () => {
    expect(await ids('')).toEqual({ total: 4, orgs: [null, 'ikea.com', 'veeam.com', 'FastMail Pty Ltd'] });
    expect(await ids('?page=2&pageSize=3')).toEqual({ total: 4, orgs: ['FastMail Pty Ltd'] });
    const first = (await client.get('/api/dmarc/reports?status=imported&pageSize=1')).json();
    expect(first).toMatchObject({ total: 3, page: 1, pageSize: 1 });
    expect(first.items[0]).toMatchObject({
      fileName: 'ikea.com!example.de!1538690400!1538776800.xml',
      dateBegin: '2018-10-04T22:00:00.000Z',
      policyPublished: { p: 'none', sp: 'none', adkim: 'r', aspf: 'r', pct: 100, np: null },
      compliance: 0,
    });
  });

  it('filters by domain and by begin date, both ends inclusive', async () => {
    expect(await ids('?domain=EXAMPLE.DE')).toEqual({ total: 1, orgs: ['ikea.com'] });
    // veeam's report begins 2018-06-27T21:00Z.
    expect(await ids('?from=2018-06-27&to=2018-06-27')).toEqual({ total: 1, orgs: ['veeam.com'] });
    expect(await ids('?from=2018-01-01&to=2018-06-30')).toEqual({ total: 2, orgs: ['veeam.com', 'FastMail Pty Ltd'] });
  });

  it('says what is wrong with a bad query', async () => {
    const cases: [string, RegExp][] = [
      ['?pageSize=101', /at most 100/],
      ['?page=0', /page starts at 1/],
      ['?from=2018-07-01&to=2018-06-01', /from must not be after to/],
      ['?from=yesterday', /2024-03-31/],
      ['?status=lost', /status/],
    ];
    for (const [query, message] of cases) {
      const res = await client.get(`/api/dmarc/reports${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().message, query).toMatch(message);
    }
  });

  it('shows another user nothing of these reports', async () => {
    const other = await signUp(t.app);
    expect((await other.client.get('/api/dmarc/reports')).json()).toEqual({
      items: [],
      total: 0,
      page: 1,
      pageSize: 25,
    });
    expect((await other.client.get('/api/dmarc/analytics?days=90')).json()).toMatchObject({
      totalReports: 0,
      reporters: [],
    });
  });
});

const VEEAM = 'veeam.com!example.com!1530133200!1530219600.xml';
const FASTMAIL = 'fastmail.com!example.com!1516060800!1516147199!102675056.xml.gz';
/** As a real Mimecast report arrives: one complete gzip member, then CRLF (gzip ignores such bytes). */
const mimecastGzip = () => Buffer.concat([gzipSync(fixture(`aggregate/${VEEAM}`)), Buffer.from('\r\n')]);
const STRAY_CRLF = 'Ignored 2 stray bytes after the end of the gzip data, as gzip does.';

describe('gzip files with stray bytes after their end', () => {
  it('imports an uploaded one and says the bytes were ignored', async () => {
    const { client, user } = await signUp(t.app);
    const res = await uploadReport(t.app, client, mimecastGzip(), {
      contentType: 'application/gzip',
      fileName: 'mimecast.xml.gz',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      imported: 1,
      failed: [],
      reports: [{ orgName: 'veeam.com' }],
      warnings: [{ fileName: 'mimecast.xml', warning: STRAY_CRLF }],
    });
    expect(await storedCounts(user.id)).toEqual({ reports: 1, records: AGGREGATE_FIXTURES[VEEAM].records });
  });

  it('imports a mailed one for the owner of the domain and tells the operator the bytes were ignored', async () => {
    const { client, user } = await signUp(t.app);
    const { id } = (await client.post('/api/domains', { domain: 'example.com' })).json();
    // Ownership through DNS is covered by the domain tests; here it is set directly.
    await t.database.db.update(domains).set({ isVerified: true }).where(eq(domains.id, id));
    const mail = await new MailComposer({
      from: 'dmarc-reports@mimecast.example',
      to: 'dmarc@reports.example.net',
      subject: 'Report Domain: example.com',
      attachments: [{ filename: 'mimecast.xml.gz', content: mimecastGzip(), contentType: 'application/gzip' }],
    })
      .compile()
      .build();
    // What the report-intake thread runs for a mail from SMTP or the IMAP mailbox.
    const outcome = await ingestMailedReports(t.database.db, mail, 'mimecast.eml', []);
    expect(outcome).toMatchObject({ status: 'processed', reportDomains: ['example.com'], importedFor: [user.id] });
    expect(outcome.result.split('\n')).toEqual([
      `mimecast.xml: ${STRAY_CRLF}`,
      `mimecast.xml: imported for user ${user.id} (sender not authenticated)`,
    ]);
    expect(await storedCounts(user.id)).toEqual({ reports: 1, records: AGGREGATE_FIXTURES[VEEAM].records });
  });
});

async function queuedEvaluations(userId: number): Promise<number> {
  const { rows } = await t.database.pool.query<{ n: string }>(
    `select count(*) as n from pgboss.job where name = 'evaluate-alerts' and (data->>'userId')::int = $1`,
    [userId],
  );
  return Number(rows[0].n);
}

/** A form as Node's own FormData encodes it, which is what curl -F and most API clients send. */
async function encodeForm(files: [fileName: string, data: Uint8Array | string][], fields: Record<string, string> = {}) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  for (const [fileName, data] of files)
    form.append('file', new Blob([typeof data === 'string' ? data : new Uint8Array(data)]), fileName);
  const request = new Request('http://localhost/api/dmarc/upload', { method: 'POST', body: form });
  return { body: new Uint8Array(await request.arrayBuffer()), contentType: request.headers.get('content-type')! };
}

async function uploadForm(client: TestClient, files: [string, Uint8Array | string][], fields?: Record<string, string>) {
  const { body, contentType } = await encodeForm(files, fields);
  return uploadReport(t.app, client, body, { contentType });
}

describe('POST /api/dmarc/upload with a multipart/form-data form', () => {
  it('imports the file of a one-file form, as curl -F file=@report.xml.gz sends it', async () => {
    const { client, user } = await signUp(t.app);
    const res = await uploadForm(client, [['mimecast.xml.gz', mimecastGzip()]]);
    expect(res.statusCode, res.body).toBe(200);
    const warnings = [{ fileName: 'mimecast.xml', warning: STRAY_CRLF }];
    const body = res.json();
    expect(body).toMatchObject({ imported: 1, duplicates: 0, failed: [], warnings });
    expect(body.files).toEqual([
      { fileName: 'mimecast.xml.gz', imported: 1, duplicates: 0, failed: [], reports: body.reports, warnings },
    ]);
    expect(await storedCounts(user.id)).toEqual({ reports: 1, records: AGGREGATE_FIXTURES[VEEAM].records });
  });

  it('imports every file of a form and says per file what happened', async () => {
    const { client, user } = await signUp(t.app);
    const files: [string, Uint8Array][] = [
      [VEEAM, fixture(`aggregate/${VEEAM}`)],
      [FASTMAIL, fixture(`aggregate/${FASTMAIL}`)],
    ];
    // Fields that are not files (a browser form's submit button, say) are ignored.
    const first = await uploadForm(client, files, { note: 'weekly batch' });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({
      imported: 2,
      duplicates: 0,
      failed: [],
      reports: [{ orgName: 'veeam.com' }, { orgName: 'FastMail Pty Ltd' }],
      files: [
        { fileName: VEEAM, imported: 1, duplicates: 0, failed: [], reports: [{ orgName: 'veeam.com' }] },
        { fileName: FASTMAIL, imported: 1, duplicates: 0, failed: [], reports: [{ orgName: 'FastMail Pty Ltd' }] },
      ],
    });
    expect(first.json()).not.toHaveProperty('warnings');

    const again = await uploadForm(client, [...files, ['notes.xml', 'not a report']]);
    expect(again.statusCode, again.body).toBe(200);
    const failed = [{ fileName: 'notes.xml', error: expect.any(String) }];
    expect(again.json()).toMatchObject({
      imported: 0,
      duplicates: 2,
      failed,
      files: [
        { fileName: VEEAM, imported: 0, duplicates: 1, failed: [], reports: [] },
        { fileName: FASTMAIL, imported: 0, duplicates: 1, failed: [], reports: [] },
        {
          fileName: 'notes.xml',
          imported: 0,
          duplicates: 0,
          failed,
          reports: [{ status: 'failed', fileName: 'notes.xml' }],
        },
      ],
    });
    expect(await storedCounts(user.id)).toEqual({
      reports: 3,
      records: AGGREGATE_FIXTURES[VEEAM].records + AGGREGATE_FIXTURES[FASTMAIL].records,
    });
  });

  it('refuses a form without a file with 400', async () => {
    const { client, user } = await signUp(t.app);
    const message = 'The form has no file: send each report as a file part, as curl -F file=@report.xml.gz does.';
    for (const res of [
      await uploadForm(client, [], { file: 'report.xml' }),
      // A browser's file input left empty: a file part with no name and no bytes.
      await uploadForm(client, [['', '']]),
    ]) {
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ code: 'validation_error', message });
    }
    expect(await storedCounts(user.id)).toEqual({ reports: 0, records: 0 });
  });

  it('refuses a form of more than 20 files or fields with 413, storing none of it', async () => {
    const { client, user } = await signUp(t.app);
    const xml = fixture(`aggregate/${VEEAM}`);
    const fields = Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`field${i}`, 'x']));
    for (const res of [
      await uploadForm(
        client,
        Array.from({ length: 21 }, (_, i): [string, Uint8Array] => [`report-${i}.xml`, xml]),
      ),
      await uploadForm(client, [[VEEAM, xml]], fields),
    ]) {
      expect(res.statusCode).toBe(413);
      expect(res.json()).toEqual({
        code: 'payload_too_large',
        message: 'The form has too many parts: send at most 20 files (and at most 20 other fields) in one form.',
      });
    }
    // 20 files are fine (all the same report here: one import, 19 duplicates).
    const twenty = await uploadForm(
      client,
      Array.from({ length: 20 }, (_, i): [string, Uint8Array] => [`report-${i}.xml`, xml]),
    );
    expect(twenty.json()).toMatchObject({ imported: 1, duplicates: 19 });
    expect(twenty.json().files).toHaveLength(20);
    expect(await storedCounts(user.id)).toEqual({ reports: 1, records: AGGREGATE_FIXTURES[VEEAM].records });
  });

  it('caps the whole form at 10 MB, and refuses a broken one with 400', async () => {
    const { client, user } = await signUp(t.app);
    const half = Buffer.alloc(5.5 * 1024 * 1024, 'a');
    const big = await uploadForm(client, [
      ['a.xml', half],
      ['b.xml', half],
    ]);
    expect(big.statusCode).toBe(413);
    expect(big.json()).toEqual({
      code: 'payload_too_large',
      message: 'The file is too large: uploads are limited to 10 MB.',
    });

    const noBoundary = await uploadReport(t.app, client, 'x', { contentType: 'multipart/form-data' });
    expect(noBoundary.statusCode).toBe(400);
    expect(noBoundary.json().message).toMatch(/^The form \(multipart\/form-data\) cannot be read: /);
    const { body, contentType } = await encodeForm([[VEEAM, fixture(`aggregate/${VEEAM}`)]]);
    const cut = await uploadReport(t.app, client, body.subarray(0, body.length / 2), { contentType });
    expect(cut.statusCode).toBe(400);
    // A file's name is held to the same rules as ?filename= for a raw upload.
    const longName = await uploadForm(client, [[`${'a'.repeat(300)}.xml`, '<x/>']]);
    expect(longName.json()).toEqual({ code: 'validation_error', message: 'filename must be at most 255 characters' });
    expect(await storedCounts(user.id)).toEqual({ reports: 0, records: 0 });
    // The rest of the API still takes only JSON.
    const form = await encodeForm([['a.xml', '<x/>']]);
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      headers: { 'content-type': form.contentType },
      payload: Buffer.from(form.body),
    });
    expect(login.statusCode).toBe(415);
  });
});
