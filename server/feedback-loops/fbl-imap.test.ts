import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pollDmarcMailboxJob } from '../dmarc/poll-dmarc-mailbox.job';
import { noDovecot, startDovecot, type TestImapServer } from '../test/dovecot';
import { startDnsServer, type TestDnsServer } from '../test/dns-server';
import { createTestApp, type TestApp } from '../test/test-app';
import { waitUntil } from '../test/wait-until';
import { fastmailReportNow, fblMessages, LOOP_ZONE, ownerWithSends, signedBy } from './loop-reports.test-support';

/*
 * Operators often give feedback loops the mailbox DMARC reports arrive in (DMARC_IMAP_URL): a complaint report found
 * there is counted as if it had been mailed to fbl@ (real Dovecot, the real poll job).
 */

const MAILBOX = { user: 'reports@example.org', password: 'mailbox pw 9' };

describe.skipIf(noDovecot)('feedback loop reports in the DMARC_IMAP_URL mailbox', () => {
  let imap: TestImapServer;
  let dns: TestDnsServer;
  let t: TestApp;

  beforeAll(async () => {
    imap = await startDovecot({ users: [MAILBOX] });
    dns = await startDnsServer(LOOP_ZONE);
    const url = `imap://${encodeURIComponent(MAILBOX.user)}:${encodeURIComponent(MAILBOX.password)}@127.0.0.1:${imap.port}/INBOX?starttls=false`;
    t = await createTestApp({ work: true, env: { DMARC_IMAP_URL: url, DNS_SERVERS: dns.address } });
  });
  afterAll(async () => {
    await t?.close();
    await dns?.close();
    await imap?.stop();
  });

  it('hands a complaint report to the feedback loop mailbox, which counts it', async () => {
    const owner = await ownerWithSends(t, 'snt1.net', 2);
    await imap.deliver(MAILBOX.user, 'INBOX', await signedBy('fbl.fastmail.fm', fastmailReportNow()));
    await t.jobs.send(pollDmarcMailboxJob, {});

    const [message] = await waitUntil(
      async () => (await fblMessages(t)).filter((row) => row.status !== 'received'),
      'the report to be processed',
      { until: (rows) => rows.length === 1 },
    );
    expect(message).toMatchObject({ source: 'imap', rcptTo: ['fbl@inbox.localhost'], status: 'processed' });
    expect((await owner.client.get(`/api/v1/domains/${owner.domainId}/status`)).json().delivery).toMatchObject({
      delivered: 2,
      complaints: 1,
      complaintRate: 50,
    });
  });
});
