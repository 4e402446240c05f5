import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dmarcReports } from '../platform/db/schema/index';
import { createTestApp, signUp, type TestApp } from '../test/test-app';
import { fixture } from './fixtures';
import { ingestMailedReports } from './mailed-reports';
import { RFC9991_EXAMPLE_REPORT } from './rfc9991-example.test-support';
import { uploadReport } from './upload-client.test-support';
import { verifiedOwnerOf } from './verified-owner.test-support';

/*
 * A failure report mailed to dmarc@ (RFC 9991) is not imported, but it reaches the users who
 * verified its Reported-Domain, as a row that says what failed: routed as aggregate reports are.
 * Nothing of the failed message it carries is kept.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const ownerOf = (domain: string) => verifiedOwnerOf(t, domain);

const EXAMPLE_SENTENCE =
  'The e-mail is a DMARC failure report (RFC 9991) for consumer.example from 192.0.2.2 (envelope sender forwarder.example): DKIM did not authenticate an aligned identity (Identity-Alignment: dkim); the DKIM signature checked was d=consumer.example s=epsilon. Failure reports are not imported here; the aggregate reports (rua=) count such failures by source.';

describe('mailed failure reports (RFC 9991)', () => {
  it('RFC 9991 appendix A: reaches the verified owner of its Reported-Domain as a row saying what failed, and nobody else', async () => {
    const owner = await ownerOf('consumer.example');
    const bystander = await signUp(t.app);
    const outcome = await ingestMailedReports(t.database.db, Buffer.from(RFC9991_EXAMPLE_REPORT), 'message-1.eml', []);
    expect(outcome).toEqual({
      status: 'processed',
      result: `message-1.eml: failure report for consumer.example kept for user ${owner.user.id} (sender not authenticated)`,
      reportDomains: ['consumer.example'],
      importedFor: [],
    });
    const failed = (await owner.client.get('/api/dmarc/reports?status=failed')).json();
    expect(failed.items).toEqual([
      expect.objectContaining({
        status: 'failed',
        fileName: 'message-1.eml',
        error: EXAMPLE_SENTENCE,
        senderAuthenticated: false,
        domain: null,
      }),
    ]);
    expect((await bystander.client.get('/api/dmarc/reports?status=failed')).json().total).toBe(0);
  });

  it('RFC 9991 5.1: marks the report authenticated when its mail proved it came from the reporter', async () => {
    const owner = await ownerOf('consumer.example');
    // The report's From is DMARC@gen.example: a DKIM signature or DMARC pass for gen.example proves it.
    await ingestMailedReports(t.database.db, Buffer.from(RFC9991_EXAMPLE_REPORT), 'message-2.eml', ['gen.example']);
    const failed = (await owner.client.get('/api/dmarc/reports?status=failed')).json();
    expect(failed.items).toEqual([expect.objectContaining({ fileName: 'message-2.eml', senderAuthenticated: true })]);
  });

  it('keeps nothing of the failed message it carries', async () => {
    const owner = await ownerOf('consumer.example');
    await ingestMailedReports(t.database.db, Buffer.from(RFC9991_EXAMPLE_REPORT), 'message-3.eml', []);
    const rows = await t.database.db.select().from(dmarcReports).where(eq(dmarcReports.userId, owner.user.id));
    expect(rows).toHaveLength(1);
    const stored = JSON.stringify(rows);
    for (const secret of [
      'This is the original subject',
      'Message body was here',
      'author@consumer.example',
      'users@forwarder.example',
    ]) {
      expect(stored).not.toContain(secret);
    }
  });

  it('is left for the operator when nobody verified its domain, and says so', async () => {
    const outcome = await ingestMailedReports(
      t.database.db,
      fixture('failure/[Netease DMARC Failure Report] Rent Reminder.eml'),
      'message-4.eml',
      [],
    );
    expect(outcome).toMatchObject({
      status: 'unrouted',
      reportDomains: ['cardinal.com'],
      result: 'message-4.eml: no user has verified cardinal.com',
    });
  });

  it('RFC 6591 era: the real failure reports reach the owners of their domain too; one without an ARF part cannot be routed', async () => {
    const owner = await ownerOf('domain.de');
    const name = 'DMARC Failure Report for domain.de (mail-from=sharepoint@domain.de, ip=10.10.10.10).eml';
    const outcome = await ingestMailedReports(t.database.db, fixture(`failure/${name}`), 'message-5.eml', []);
    expect(outcome).toMatchObject({ status: 'processed', reportDomains: ['domain.de'] });
    const failed = (await owner.client.get('/api/dmarc/reports?status=failed')).json();
    expect(failed.items[0].error).toMatch(
      /^The e-mail is a DMARC failure report \(RFC 9991\) for domain\.de from 10\.10\.10\.10/,
    );

    const plain = await ingestMailedReports(
      t.database.db,
      fixture('failure/exim_plain_text_only_no_arf_part.eml'),
      'message-6.eml',
      [],
    );
    expect(plain).toEqual({
      status: 'failed',
      result:
        'message-6.eml: The e-mail is a DMARC failure (forensic) report, not an aggregate report; failure reports are not imported here.',
      reportDomains: [],
      importedFor: [],
    });
  });

  it('an uploaded failure report is kept as a failed import that says what failed', async () => {
    const { client } = await signUp(t.app);
    const res = await uploadReport(t.app, client, Buffer.from(RFC9991_EXAMPLE_REPORT), {
      contentType: 'message/rfc822',
      fileName: 'ruf.eml',
    });
    expect(res.json().failed).toEqual([{ fileName: 'ruf.eml', error: EXAMPLE_SENTENCE }]);
  });
});
