import { eq } from 'drizzle-orm';
import MailComposer from 'nodemailer/lib/mail-composer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { domains, inboundMessages } from '../platform/db/schema/index';
import { fixture } from './fixtures';
import { pollDmarcMailboxJob } from './poll-dmarc-mailbox.job';
import { noDovecot, startDovecot, type TestImapServer } from '../test/dovecot';
import { createTestApp, signUp, type TestApp, type TestClient } from '../test/test-app';
import { unprocessedInbound } from '../test/inbound-messages';
import { waitUntil } from '../test/wait-until';

const MAILBOX = { user: 'dmarc-reports@example.org', password: 'mailbox pw 7' };

/** A report e-mail as reporters send them: a short text part and the zipped or gzipped XML attached. */
async function reportMail(subject: string, filename: string, content: Buffer): Promise<Buffer> {
  return new MailComposer({
    from: 'noreply-dmarc@reporter.example',
    to: MAILBOX.user,
    subject,
    text: 'Report attached.',
    attachments: [{ filename, content }],
  })
    .compile()
    .build();
}

describe.skipIf(noDovecot)('the DMARC_IMAP_URL mailbox, polled by a job (real Dovecot)', () => {
  let imap: TestImapServer;
  let t: TestApp;
  let client: TestClient;

  beforeAll(async () => {
    imap = await startDovecot({ users: [MAILBOX] });
    const url = `imap://${encodeURIComponent(MAILBOX.user)}:${encodeURIComponent(MAILBOX.password)}@127.0.0.1:${imap.port}/INBOX?starttls=false`;
    t = await createTestApp({ work: true, env: { DMARC_IMAP_URL: url } });
    client = (await signUp(t.app)).client;
    const { id } = (await client.post('/api/domains', { domain: 'example.com' })).json();
    // Ownership verification through DNS is covered by the domain tests; here it is set directly.
    await t.database.db.update(domains).set({ isVerified: true }).where(eq(domains.id, id));
  });
  afterAll(async () => {
    await t?.close();
    await imap?.stop();
  });

  /** The mailbox poll jobs by state (the schedule may add its own runs to the ones a test sends). */
  async function pollJobs(): Promise<Record<string, number>> {
    const { rows } = await t.database.pool.query<{ state: string; n: number }>(
      `SELECT state, count(*)::int AS n FROM pgboss.job WHERE name = 'poll-dmarc-mailbox' GROUP BY state`,
    );
    return Object.fromEntries(rows.map((r) => [r.state, r.n]));
  }

  /** Runs one poll now and waits until it has completed: every poll job finished, one more of them completed. */
  async function pollOnce() {
    const completedBefore = (await pollJobs()).completed ?? 0;
    await t.jobs.send(pollDmarcMailboxJob, {});
    await waitUntil(
      async () => {
        const jobs = await pollJobs();
        if (jobs.failed) throw new Error(`a mailbox poll failed: ${JSON.stringify(jobs)}`);
        return jobs;
      },
      'the mailbox poll job to complete',
      { until: (jobs) => (jobs.completed ?? 0) > completedBefore && !jobs.created && !jobs.retry && !jobs.active },
    );
  }

  it('imports each unread report once, flags it read, and leaves read mail alone', async () => {
    await imap.deliver(
      MAILBOX.user,
      'INBOX',
      await reportMail(
        'Report 1',
        'r.zip',
        fixture('aggregate/estadocuenta1.infonacot.gob.mx!example.com!1536853302!1536939702!2940.xml.zip'),
      ),
    );
    await imap.deliver(
      MAILBOX.user,
      'INBOX',
      await reportMail('Report 2', 'r.xml', fixture('aggregate/usssa.com!example.com!1538784000!1538870399.xml')),
    );
    // Already read by a person: not ours to take.
    await imap.deliver(
      MAILBOX.user,
      'INBOX',
      await reportMail('Read', 'r.xml', fixture('aggregate/veeam.com!example.com!1530133200!1530219600.xml')),
      ['\\Seen'],
    );

    const total = async () => (await client.get('/api/dmarc/reports')).json().total as number;
    await pollOnce();
    // The poll stores the messages; their own jobs import the reports, then mark the messages processed.
    await waitUntil(
      async () => ({
        unprocessed: await unprocessedInbound(t.database.db),
        reports: await total(),
      }),
      'both reports imported and their messages processed',
      { until: (seen) => seen.unprocessed === 0 && seen.reports === 2 },
    );
    const list = (await client.get('/api/dmarc/reports')).json();
    expect(list.items.map((r: { orgName: string }) => r.orgName).sort()).toEqual(['XYZ Corporation', 'usssa.com']);
    expect((await imap.listMessages(MAILBOX.user, 'INBOX')).every((m) => m.flags.includes('\\Seen'))).toBe(true);

    const rows = await t.database.db.select().from(inboundMessages);
    expect(rows).toHaveLength(2);
    expect(
      rows.every((r) => r.source === 'imap' && r.sourceKey?.startsWith('imap:127.0.0.1:') && r.status === 'processed'),
    ).toBe(true);

    // A second poll finds nothing new and stores nothing twice: a poll stores what it finds before it completes.
    await pollOnce();
    expect(await t.database.db.select().from(inboundMessages)).toHaveLength(2);
    expect(await total()).toBe(2);
  });

  it('says the mailbox is polled on the report address endpoint', async () => {
    expect((await client.get('/api/dmarc/intake')).json()).toEqual({
      reportAddress: 'dmarc@inbox.localhost',
      mailboxPolled: true,
    });
  });
});
