import { asc, eq } from 'drizzle-orm';
import MailComposer from 'nodemailer/lib/mail-composer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dmarcReports, domains } from '../platform/db/schema/index';
import { startThreadTasks, type ThreadTasks } from '../platform/workers/thread-tasks';
import { startDnsServer, type TestDnsServer } from '../test/dns-server';
import { createTestApp, signUp, type TestApp } from '../test/test-app';
import { importMailedReports } from './report-intake';
import { reportXml } from './report-xml.test-support';

/*
 * The report-intake thread takes mailed reports by sending network in turn (report-intake.ts, mailLane): a burst of
 * report mails from one network does not keep another network's report waiting behind all of it. Each reporter proves
 * its reports by SPF and DMARC, so they are stored as authenticated data.
 */

const OWNED = 'fair-intake.example.com';
/** A reporter's zone: SPF for the network it mails from, and a DMARC record, so its mail passes DMARC by SPF. */
const reporter = (org: string, network: string) => ({
  [org]: { TXT: [`v=spf1 ip4:${network} -all`] },
  [`_dmarc.${org}`]: { TXT: ['v=DMARC1; p=reject'] },
});

let t: TestApp;
let dns: TestDnsServer;
let threads: ThreadTasks;
beforeAll(async () => {
  t = await createTestApp();
  dns = await startDnsServer({
    ...reporter('burst.test', '192.0.2.0/24'),
    ...reporter('steady.test', '198.51.100.0/24'),
  });
  // The app's own thread tasks, started as app-services.ts starts them, resolving through the test's DNS server.
  threads = startThreadTasks({
    connection: t.database.connection,
    dns: { servers: [dns.address], timeoutMs: 1000, tries: 1, maxCacheSeconds: 0 },
  });
});
afterAll(async () => {
  await threads?.close();
  await t?.close();
  await dns?.close();
});

/** A report mail as a reporter sends it: the XML report attached, From and MAIL FROM on the reporter's domain. */
async function reportMail(org: string, reportId: string, records: number): Promise<Uint8Array> {
  const xml = reportXml({
    orgName: org,
    reportId,
    domain: OWNED,
    begin: new Date('2026-11-20T00:00:00Z'),
    records: Array.from({ length: records }, (_, i) => ({
      ip: `203.0.113.${i % 250}`,
      count: i + 1,
      dkim: 'pass' as const,
      spf: 'pass' as const,
    })),
  });
  return new MailComposer({
    from: `noreply-dmarc@${org}`,
    to: 'dmarc@reports.example.net',
    subject: `Report Domain: ${OWNED} Submitter: ${org} Report-ID: ${reportId}`,
    attachments: [{ filename: `${org}!${OWNED}!${reportId}.xml`, content: xml, contentType: 'text/xml' }],
  })
    .compile()
    .build();
}

describe('mailed DMARC reports from several networks', () => {
  it("store one network's report right after the report being read, not behind another network's burst", async () => {
    const owner = await signUp(t.app);
    await t.database.db
      .insert(domains)
      .values({ userId: owner.user.id, domain: OWNED, isVerified: true, verificationToken: 'fair-intake' });
    const burst = await Promise.all([1, 2, 3, 4].map((n) => reportMail('burst.test', `burst-${n}`, 2_000)));
    const steady = await reportMail('steady.test', 'steady-1', 10);
    const ctx = { threads, jobs: t.jobs };

    // One turn of the event loop: every mail is queued for the thread before the first is read, as when a worker
    // takes a batch of them. The burst comes from four addresses of one /24: one network, one lane.
    const imports = [
      ...burst.map((mail, i) =>
        importMailedReports(ctx, mail, `burst-${i + 1}.eml`, {
          ip: `192.0.2.${10 + i}`,
          helo: 'mta.burst.test',
          mailFrom: 'bounces@burst.test',
        }),
      ),
      importMailedReports(ctx, steady, 'steady-1.eml', {
        ip: '198.51.100.7',
        helo: 'mta.steady.test',
        mailFrom: 'bounces@steady.test',
      }),
    ];
    // Authenticated (no "sender not authenticated"): stored as the owner's data, not kept apart.
    for (const outcome of await Promise.all(imports))
      expect(outcome).toMatchObject({ status: 'processed', result: expect.stringMatching(/imported for user \d+$/) });

    const stored = await t.database.db
      .select({ reportId: dmarcReports.reportId })
      .from(dmarcReports)
      .where(eq(dmarcReports.userId, owner.user.id))
      .orderBy(asc(dmarcReports.id));
    expect(stored.map((r) => r.reportId)).toEqual(['burst-1', 'steady-1', 'burst-2', 'burst-3', 'burst-4']);
  });
});
