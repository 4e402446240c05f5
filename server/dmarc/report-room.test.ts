import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DMARC_RECORDS_PER_ACCOUNT,
  DOMAIN_RECORDS_PER_DAY,
  REPORTER_RECORDS_PER_DAY,
  UNAUTHENTICATED_BYTES_PER_DOMAIN,
  UNAUTHENTICATED_RECORDS_PER_DOMAIN,
} from '@contracts/account';
import { dmarcReports } from '../platform/db/schema/index';
import { createTestApp, type TestApp, type TestClient } from '../test/test-app';
import { ingestMailedReports } from './mailed-reports';
import { reportXml } from './report-xml.test-support';
import { uploadReport } from './upload-client.test-support';
import { verifiedOwnerOf } from './verified-owner.test-support';

/*
 * Issue 36, section 2: what reports mailed to the one public dmarc@ address may store. Anyone can mail
 * one, so a report whose mail did not prove its reporter is kept apart (its own allowance, never in the
 * figures); an authenticated reporter is bounded per day; a trusted report that meets the account's cap
 * makes room by removing the oldest reports instead of being refused.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const DAY = 24 * 3600 * 1000;

const ownerOf = (domain: string) => verifiedOwnerOf(t, domain);

let serial = 0;
const report = (domain: string, orgName: string, records = 2, begin = new Date(Date.now() - DAY)) =>
  reportXml({
    orgName,
    reportId: `r-${++serial}`,
    domain,
    begin,
    records: Array.from({ length: records }, (_, i) => ({
      ip: `192.0.2.${(i % 250) + 1}`,
      count: 10,
      dkim: 'pass' as const,
      spf: 'pass' as const,
    })),
  });

/** Mails a report to dmarc@, its mail having proven the domains `proven` (none: a forgery, or an unsigned reporter). */
const mail = (xml: string, proven: string[] = []) =>
  ingestMailedReports(t.database.db, Buffer.from(xml), `mail-${serial}.xml`, proven);

/** A stored report standing for `records` records and `rawSize` bytes (the sums are kept on the report row). */
async function storedRow(
  userId: number,
  values: Partial<typeof dmarcReports.$inferInsert> & { recordCount: number },
): Promise<void> {
  await t.database.db.insert(dmarcReports).values({
    userId,
    status: 'imported',
    fileName: 'earlier.xml',
    rawSize: 1,
    domain: 'victim.test',
    orgName: `earlier-${++serial}.example`,
    reportId: `earlier-${serial}`,
    dateBegin: new Date(Date.now() - 30 * DAY),
    ...values,
  });
}

const reports = async (client: TestClient, query = '') => (await client.get(`/api/dmarc/reports${query}`)).json();
const messages = async (client: TestClient) =>
  (await client.get('/api/dmarc/analytics?domain=victim.test&days=30')).json().totalMessages;

describe('reports whose mail did not prove their reporter', () => {
  it('are listed apart with the reason, never counted in the figures, and give way to the authenticated copy', async () => {
    const { client } = await ownerOf('victim.test');
    const xml = report('victim.test', 'google.com');
    await mail(xml, ['forger.example']);
    const apart = await reports(client, '?sender=unauthenticated');
    expect(apart.items).toEqual([
      expect.objectContaining({
        status: 'imported',
        orgName: 'google.com',
        senderAuthenticated: false,
        unauthenticatedReason:
          'The report says it comes from google.com, but the mail proved only forger.example (a DKIM signature or DMARC pass).',
      }),
    ]);
    expect((await reports(client, '?sender=authenticated')).total).toBe(0);
    expect(await messages(client)).toBe(0);
    expect((await client.get('/api/dmarc/report-domains')).json().items).toEqual([]);

    // The same report, now mailed by Google itself: it replaces the unauthenticated copy and counts.
    await mail(xml, ['google.com']);
    expect((await reports(client, '?sender=unauthenticated')).total).toBe(0);
    expect((await reports(client, '?sender=authenticated')).items).toEqual([
      expect.objectContaining({ senderAuthenticated: true, unauthenticatedReason: null }),
    ]);
    expect(await messages(client)).toBe(20);
  });

  it('are kept within a small allowance per domain, refused before parsing when their bytes are over it, and never crowd out a trusted report', async () => {
    const { client, user } = await ownerOf('victim.test');
    await storedRow(user.id, {
      senderAuthenticated: false,
      recordCount: UNAUTHENTICATED_RECORDS_PER_DOMAIN - 1,
      orgName: 'forged.example',
    });
    const outcome = await mail(report('victim.test', 'yahoo.com'));
    expect(outcome.result).toContain(
      `failed for user ${user.id}: Not stored: its mail did not prove it came from yahoo.com`,
    );
    const [refused] = (await reports(client, '?status=failed')).items;
    expect(refused).toMatchObject({ senderAuthenticated: false, domain: null });
    expect(refused.error).toMatch(
      /^Not stored: its mail did not prove it came from yahoo\.com, and such reports for victim\.test are kept within 10,000 records and 5\.0 MB; they hold 9,999 records and 0\.0 MB, and this one has 2 records and 0\.0 MB\./,
    );

    // Over the byte allowance: refused on its header alone (its broken records are never read).
    const { client: other, user: second } = await ownerOf('victim.test');
    await storedRow(second.id, {
      senderAuthenticated: false,
      recordCount: 1,
      rawSize: UNAUTHENTICATED_BYTES_PER_DOMAIN - 100,
    });
    const broken = report('victim.test', 'outlook.com').replace('</record>', '</recrod>');
    await mail(broken);
    const [early] = (await reports(other, '?status=failed')).items;
    expect(early.error).toMatch(/^Not stored: its mail did not prove it came from outlook\.com/);
    expect(early.error).toMatch(/this one has 0\.0 MB\./);

    // The owner's own upload and an authenticated report are not limited by it.
    expect((await uploadReport(t.app, client, report('victim.test', 'yahoo.com'))).json()).toMatchObject({
      imported: 1,
    });
    await mail(report('victim.test', 'mail.ru'), ['mail.ru']);
    expect((await reports(client, '?sender=authenticated&status=imported')).total).toBe(2);
  });
});

describe('authenticated reporters, per day', () => {
  it('bound what one reporter, and all reporters together, store for a domain in a day; an upload is not bound', async () => {
    const { client, user } = await ownerOf('victim.test');
    await storedRow(user.id, {
      senderAuthenticated: true,
      orgName: 'google.com',
      recordCount: REPORTER_RECORDS_PER_DAY - 1,
    });
    await mail(report('victim.test', 'google.com'), ['google.com']);
    const [refused] = (await reports(client, '?status=failed')).items;
    expect(refused.error).toMatch(
      /^Not stored: google\.com sent 99,999 records and 0\.0 MB of reports for victim\.test today, and may store at most 100,000 records and 50\.0 MB a day, so that no sender crowds out the others; this one has 2 records and 0\.0 MB\. Upload the report to store it anyway\.$/,
    );
    // Another reporter is not held back by Google's day, until all of them together reach the domain's.
    await mail(report('victim.test', 'yahoo.com'), ['yahoo.com']);
    expect((await reports(client, '?status=imported&sender=authenticated')).items[0]).toMatchObject({
      orgName: 'yahoo.com',
    });
    await storedRow(user.id, {
      senderAuthenticated: true,
      orgName: 'others.example',
      recordCount: DOMAIN_RECORDS_PER_DAY - REPORTER_RECORDS_PER_DAY - 1,
    });
    const outcome = await mail(report('victim.test', 'outlook.com'), ['outlook.com']);
    expect(outcome.result).toContain('Not stored: all reporters together sent');
    // A report stored yesterday does not count today.
    const { client: fresh, user: next } = await ownerOf('victim.test');
    await storedRow(next.id, {
      senderAuthenticated: true,
      orgName: 'google.com',
      recordCount: REPORTER_RECORDS_PER_DAY,
      createdAt: new Date(Date.now() - DAY - 1000),
    });
    await mail(report('victim.test', 'google.com'), ['google.com']);
    expect((await reports(fresh, '?status=failed')).total).toBe(0);
    // The owner's upload of Google's report is stored whatever Google mailed today.
    expect((await uploadReport(t.app, client, report('victim.test', 'google.com'))).json()).toMatchObject({
      imported: 1,
    });
  });
});

describe("the account's cap", () => {
  it('makes room for a newer trusted report by removing the oldest, and tells the owner', async () => {
    const { client, user } = await ownerOf('victim.test');
    await storedRow(user.id, {
      recordCount: DMARC_RECORDS_PER_ACCOUNT - 10,
      dateBegin: new Date(Date.now() - 300 * DAY),
      orgName: 'oldest.example',
    });
    await storedRow(user.id, { recordCount: 8, dateBegin: new Date(Date.now() - 200 * DAY), orgName: 'older.example' });
    // Unauthenticated reports are outside the cap: they neither fill it nor are removed for it.
    await storedRow(user.id, { recordCount: 500, senderAuthenticated: false, orgName: 'forged.example' });
    expect((await uploadReport(t.app, client, report('victim.test', 'google.com', 3))).json()).toMatchObject({
      imported: 1,
    });
    const kept = (await reports(client, '?pageSize=100')).items.map((r: { orgName: string }) => r.orgName);
    expect(kept).toEqual(expect.arrayContaining(['google.com', 'older.example', 'forged.example']));
    expect(kept).not.toContain('oldest.example');
    const alerts = (await client.get('/api/alerts')).json() as { title: string; message: string; severity: string }[];
    expect(alerts).toEqual([
      expect.objectContaining({
        title: 'Old DMARC reports removed to make room',
        severity: 'info',
        message: expect.stringMatching(
          /the oldest were removed, most recently 1 \(999,990 records\) covering periods up to/,
        ),
      }),
    ]);
    // A mailed, authenticated report makes room the same way.
    await storedRow(user.id, {
      recordCount: DMARC_RECORDS_PER_ACCOUNT - 13,
      dateBegin: new Date(Date.now() - 250 * DAY),
    });
    await mail(report('victim.test', 'yahoo.com', 5), ['yahoo.com']);
    expect((await reports(client, '?sender=authenticated&status=imported&pageSize=100')).items).toEqual(
      expect.arrayContaining([expect.objectContaining({ orgName: 'yahoo.com' })]),
    );
  });

  it('refuses a report older than everything that could make room, and stores nothing of it', async () => {
    const { client, user } = await ownerOf('victim.test');
    await storedRow(user.id, { recordCount: DMARC_RECORDS_PER_ACCOUNT - 2, dateBegin: new Date(Date.now() - DAY) });
    const old = report('victim.test', 'google.com', 3, new Date(Date.now() - 400 * DAY));
    expect((await uploadReport(t.app, client, old)).json()).toMatchObject({
      imported: 0,
      failed: [
        {
          error:
            'Your account keeps at most 1,000,000 DMARC report records and holds 999,998; this report has 3, and the reports older than it hold too few to make room. Delete reports to make room, then upload it again.',
        },
      ],
    });
    expect((await client.get('/api/account/storage')).json().dmarc).toMatchObject({
      records: DMARC_RECORDS_PER_ACCOUNT - 2,
    });
  });
});
