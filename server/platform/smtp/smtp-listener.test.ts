import { eq, sql } from 'drizzle-orm';
import { generateKeyPairSync } from 'node:crypto';
import { connect } from 'node:net';
import nodemailer, { type SendMailOptions } from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { domains, inboundMessages } from '../db/schema/index';
import { fixture } from '../../dmarc/fixtures';
import { reportXml } from '../../dmarc/report-xml.test-support';
import { startDnsServer, type TestDnsServer } from '../../test/dns-server';
import { createTestApp, startTestSmtpListener, signUp, type TestApp, type TestClient } from '../../test/test-app';
import { maintenanceJob } from '../../maintenance.job';
import { unprocessedInbound } from '../../test/inbound-messages';
import { waitUntil } from '../../test/wait-until';
import { storeInboundMessage } from './inbound.repo';
import { MAX_CONNECTIONS_PER_IP, type SmtpListener } from './smtp-listener';

const INBOUND = 'in.inboxpulse.test';
const LIMIT_BYTES = 200 * 1024;
const GZ_REPORT = 'aggregate/fastmail.com!example.com!1516060800!1516147199!102675056.xml.gz'; // domain indemed.com
// example.com
const ZIP_REPORT = 'aggregate/estadocuenta1.infonacot.gob.mx!example.com!1536853302!1536939702!2940.xml.zip';

let t: TestApp;
let smtp: SmtpListener;
let owner: TestClient;
let bystander: TestClient;
let dns: TestDnsServer;

async function addDomain(client: TestClient, domain: string, verified: boolean) {
  const { id, verificationRecord } = (await client.post('/api/domains', { domain })).json();
  if (!verified) return;
  // The ownership record is published, so the check that adding a domain queues (which the worker may
  // run at any point of these tests) finds it and keeps the domain verified; the flag is set at once
  // so the first test need not wait for that check.
  dns.zone[verificationRecord.name] = { TXT: [verificationRecord.value] };
  await t.database.db.update(domains).set({ isVerified: true }).where(eq(domains.id, id));
}

function send(mail: SendMailOptions) {
  const transport = nodemailer.createTransport({
    host: '127.0.0.1',
    port: smtp.port,
    secure: false,
    ignoreTLS: true,
    name: 'reporter.example.org',
  });
  return transport.sendMail({ from: 'noreply-dmarc@reporter.example.org', ...mail }).finally(() => transport.close());
}

/** A reporter's DKIM key, published in the test zone: mail signed with it proves it came from `domain`. */
function signingAs(domain: string): NonNullable<SendMailOptions['dkim']> & { domainName: string } {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  dns.zone[`s1._domainkey.${domain}`] = {
    TXT: [`v=DKIM1; k=rsa; p=${publicKey.export({ type: 'spki', format: 'der' }).toString('base64')}`],
  };
  return {
    domainName: domain,
    keySelector: 's1',
    privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  };
}

const reportsOf = async (client: TestClient) =>
  (await client.get('/api/dmarc/reports')).json() as {
    total: number;
    items: { orgName: string; domain: string; reportId: string | null }[];
  };
const messageRow = async (id: number) =>
  (await t.database.db.select().from(inboundMessages).where(eq(inboundMessages.id, id)))[0];

beforeAll(async () => {
  dns = await startDnsServer();
  t = await createTestApp({
    work: true,
    env: { INBOUND_DOMAIN: INBOUND, SMTP_MAX_MESSAGE_BYTES: String(LIMIT_BYTES), DNS_SERVERS: dns.address },
  });
  smtp = await startTestSmtpListener(t);
  owner = (await signUp(t.app)).client;
  bystander = (await signUp(t.app)).client;
  await addDomain(owner, 'example.com', true);
  await addDomain(owner, 'indemed.com', true);
  // Added but never verified: must not receive example.com's reports.
  await addDomain(bystander, 'example.com', false);
});
afterAll(async () => {
  await smtp?.close();
  await t?.close();
  await dns?.close();
});

describe('DMARC reports mailed to dmarc@INBOUND_DOMAIN', () => {
  it('imports a gzip and a zip attachment for the user who verified the domain, and nobody else', async () => {
    const info = await send({
      to: `dmarc@${INBOUND}`,
      subject: 'Report Domain: indemed.com Submitter: fastmail.com',
      text: 'DMARC aggregate report attached.',
      attachments: [{ filename: 'report.xml.gz', content: fixture(GZ_REPORT) }],
    });
    expect(info.response).toMatch(/^250 .*Queued as \d+/);
    await send({
      to: `DMARC+rua@${INBOUND.toUpperCase()}`,
      subject: 'Report',
      attachments: [{ filename: 'r.zip', content: fixture(ZIP_REPORT) }],
    });

    // A message's job imports its report, then marks the message processed: wait for both.
    const { reports } = await waitUntil(
      async () => ({
        reports: await reportsOf(owner),
        unprocessed: await unprocessedInbound(t.database.db),
      }),
      'two imported reports and their messages processed',
      { until: (seen) => seen.reports.total === 2 && seen.unprocessed === 0 },
    );
    expect(reports.items.map((r) => r.domain).sort()).toEqual(['example.com', 'indemed.com']);
    expect((await reportsOf(bystander)).total).toBe(0);
    // Processed messages keep their outcome but not their bytes.
    const rows = await t.database.db.select().from(inboundMessages).where(eq(inboundMessages.status, 'processed'));
    expect(rows).toHaveLength(2);
    expect(rows.every((r) => r.raw === null && r.remoteIp === '127.0.0.1' && r.helo === 'reporter.example.org')).toBe(
      true,
    );
  });

  it('keeps a report nobody verified, and a mail without a report, for the operator', async () => {
    const unrouted = await send({
      to: `dmarc@${INBOUND}`,
      subject: 'Report',
      attachments: [{ filename: 'r.xml', content: fixture('aggregate/ikea.com!example.de!1538690400!1538776800.xml') }],
    });
    const empty = await send({ to: `dmarc@${INBOUND}`, subject: 'hello', text: 'no report here' });
    const idOf = (response: string) => Number(/Queued as (\d+)/.exec(response)![1]);
    const a = await waitUntil(() => messageRow(idOf(unrouted.response)), 'the unrouted message to be processed', {
      until: (row) => row.status !== 'received',
    });
    expect(a).toMatchObject({ status: 'unrouted', result: expect.stringContaining('no user has verified example.de') });
    expect(a.raw?.length).toBeGreaterThan(0);
    const b = await waitUntil(() => messageRow(idOf(empty.response)), 'the message without a report to be processed', {
      until: (row) => row.status !== 'received',
    });
    expect(b).toMatchObject({
      status: 'failed',
      result: expect.stringContaining('The e-mail has no DMARC report attached'),
    });
  });

  it("reads no further than the header of a report for a domain nobody verified, and keeps an owner's broken report as a failed import", async () => {
    const broken = (domain: string, reportId: string) =>
      reportXml({
        orgName: 'reporter.example.org',
        reportId,
        domain,
        begin: new Date('2026-11-01T00:00:00Z'),
        records: [{ ip: '192.0.2.1', count: 1, dkim: 'pass', spf: 'pass' }],
      }).replace('<count>1</count>', '<count>lots</count>');
    const idOf = (response: string) => Number(/Queued as (\d+)/.exec(response)![1]);
    const strangers = await send({
      to: `dmarc@${INBOUND}`,
      subject: 'Report',
      attachments: [{ filename: 'n.xml', content: broken('nobody-here.example', 'n-1') }],
    });
    const unrouted = await waitUntil(() => messageRow(idOf(strangers.response)), 'the message to be routed', {
      until: (row) => row.status !== 'received',
    });
    // Its records were never read, so their error is not known: only that nobody here owns the domain.
    expect(unrouted).toMatchObject({
      status: 'unrouted',
      result: 'n.xml: no user has verified nobody-here.example',
      reportDomains: ['nobody-here.example'],
    });

    const owners = await send({
      to: `dmarc@${INBOUND}`,
      subject: 'Report',
      attachments: [{ filename: 'o.xml', content: broken('example.com', 'o-1') }],
    });
    const processed = await waitUntil(() => messageRow(idOf(owners.response)), 'the message to be routed', {
      until: (row) => row.status !== 'received',
    });
    expect(processed).toMatchObject({ status: 'processed', result: expect.stringContaining('o.xml: failed for user') });
    const failed = (await owner.get('/api/dmarc/reports?status=failed')).json();
    expect(failed.items).toEqual([
      expect.objectContaining({
        fileName: 'o.xml',
        error: 'Record 1: the message count "lots" is not a whole number (row/count).',
      }),
    ]);
    expect((await bystander.get('/api/dmarc/reports?status=failed')).json().total).toBe(0);
  });

  it('marks a report whose mail its reporter did not sign, and lets the signed one replace it', async () => {
    const dkim = signingAs('reporter.example.org');
    const report = (count: number) =>
      reportXml({
        orgName: 'reporter.example.org',
        reportId: 'claimed-1',
        domain: 'example.com',
        begin: new Date(),
        records: [{ ip: '192.0.2.9', count, dkim: 'fail', spf: 'fail' }],
      });
    const claimed = async () => (await reportsOf(owner)).items.filter((r) => r.reportId === 'claimed-1');
    const mail = async (count: number, signedBy?: typeof dkim) => {
      const info = await send({
        to: `dmarc@${INBOUND}`,
        subject: 'Report',
        attachments: [{ filename: 'r.xml', content: report(count) }],
        dkim: signedBy,
      });
      await waitUntil(
        () => messageRow(Number(/Queued as (\d+)/.exec(info.response)![1])),
        'the report mail to be processed',
        {
          until: (row) => row.status !== 'received',
        },
      );
    };

    // A forger is first with the report id: stored, but marked.
    await mail(66_666);
    expect(await claimed()).toEqual([expect.objectContaining({ messageCount: 66_666, senderAuthenticated: false })]);
    // The reporter's own, signed: it takes the place of the forged copy, figures and all.
    await mail(12, dkim);
    expect(await claimed()).toEqual([expect.objectContaining({ messageCount: 12, senderAuthenticated: true })]);
    const analytics = (await owner.get('/api/dmarc/analytics?days=7&domain=example.com')).json();
    expect(analytics.sources.find((source: { ips: string[] }) => source.ips.includes('192.0.2.9'))).toMatchObject({
      count: 12,
    });
    // A forged copy after it is a duplicate: the signed report stays.
    await mail(99_999);
    expect(await claimed()).toEqual([expect.objectContaining({ messageCount: 12, senderAuthenticated: true })]);
  });

  it('hands an unrouted report, mailed by its reporter, to the owner once they verify the domain', async () => {
    const info = await send({
      to: `dmarc@${INBOUND}`,
      subject: 'Report',
      attachments: [{ filename: 'r.xml', content: fixture('aggregate/ikea.com!example.de!1538690400!1538776800.xml') }],
      dkim: signingAs('ikea.com'),
    });
    const id = Number(/Queued as (\d+)/.exec(info.response)![1]);
    await waitUntil(() => messageRow(id), 'the message to be unrouted', { until: (row) => row.status === 'unrouted' });
    expect((await messageRow(id)).reportDomains).toEqual(['example.de']);
    // The owner proves ownership through DNS: the real verify endpoint, against a loopback DNS server.
    const { id: domainId, verificationRecord } = (await owner.post('/api/domains', { domain: 'example.de' })).json();
    dns.zone[verificationRecord.name] = { TXT: [verificationRecord.value] };
    expect((await owner.post(`/api/domains/${domainId}/verify`, {})).json().isVerified).toBe(true);
    await t.jobs.send(maintenanceJob, {});
    await waitUntil(() => messageRow(id), 'the replayed message to be processed', {
      until: (row) => row.status === 'processed',
    });
    expect((await reportsOf(owner)).items.filter((r) => r.domain === 'example.de')).toHaveLength(1);
  });

  it("keeps only the headers of a stranger's unrouted report at once, and never replays it", async () => {
    const xml = reportXml({
      orgName: 'google.com',
      reportId: 'forged-unrouted',
      domain: 'stranger-target.com',
      begin: new Date(),
      records: [{ ip: '192.0.2.7', count: 1, dkim: 'pass', spf: 'pass' }],
    });
    const info = await send({
      to: `dmarc@${INBOUND}`,
      subject: 'Forged report',
      attachments: [{ filename: 'forged.xml', content: xml }],
    });
    const id = Number(/Queued as (\d+)/.exec(info.response)![1]);
    const row = await waitUntil(() => messageRow(id), 'the message to be unrouted', {
      until: (r) => r.status === 'unrouted',
    });
    expect(row.bodyDroppedAt).not.toBeNull();
    // the headers, and nothing of the report
    expect(row.raw!.toString()).toContain('Subject: Forged report');
    expect(row.raw!.toString().endsWith('\r\n\r\n')).toBe(true);
    expect(row.raw!.length).toBeLessThan(row.size);
    const { id: domainId, verificationRecord } = (
      await owner.post('/api/domains', { domain: 'stranger-target.com' })
    ).json();
    dns.zone[verificationRecord.name] = { TXT: [verificationRecord.value] };
    expect((await owner.post(`/api/domains/${domainId}/verify`, {})).json().isVerified).toBe(true);
    expect((await messageRow(id)).status).toBe('unrouted');
  });

  it('keeps only the headers of an unrouted report a day after it came, and no longer replays it', async () => {
    const xml = fixture('aggregate/rfc9990-sample.xml').toString().replaceAll('example.com', 'late-owner-brand.com');
    const info = await send({
      to: `dmarc@${INBOUND}`,
      subject: 'Late report',
      attachments: [{ filename: 'late.xml', content: xml }],
      dkim: signingAs('example-reporter.com'),
    });
    const id = Number(/Queued as (\d+)/.exec(info.response)![1]);
    const unrouted = await waitUntil(() => messageRow(id), 'the message to be unrouted', {
      until: (row) => row.status === 'unrouted',
    });
    expect(unrouted.raw!.toString()).toContain('late.xml');
    await t.database.db
      .update(inboundMessages)
      .set({ processedAt: sql`now() - interval '25 hours'` })
      .where(eq(inboundMessages.id, id));
    await t.jobs.send(maintenanceJob, {});
    const dropped = await waitUntil(() => messageRow(id), 'the body to be dropped', {
      until: (row) => row.bodyDroppedAt !== null,
    });
    const whole = unrouted.raw!.toString();
    // the headers, and nothing of the report
    expect(dropped.raw!.toString()).toBe(whole.slice(0, whole.indexOf('\r\n\r\n') + 4));
    expect(dropped.raw!.toString()).toContain('Subject: Late report');
    expect(dropped.size).toBe(unrouted.size); // what came is still on record
    // Verified after that day, the domain gets no replay of a body that is gone.
    const { id: domainId, verificationRecord } = (
      await owner.post('/api/domains', { domain: 'late-owner-brand.com' })
    ).json();
    dns.zone[verificationRecord.name] = { TXT: [verificationRecord.value] };
    expect((await owner.post(`/api/domains/${domainId}/verify`, {})).json().isVerified).toBe(true);
    expect((await messageRow(id)).status).toBe('unrouted');
  });

  it('processes a message whose job was never sent (the process died after storing it)', async () => {
    const id = await storeInboundMessage(t.database.db, {
      kind: 'dmarc',
      source: 'smtp',
      rcptTo: [`dmarc@${INBOUND}`],
      raw: Buffer.from(
        `From: a@b.example\r\nTo: dmarc@${INBOUND}\r\nSubject: r\r\nContent-Type: application/xml\r\n\r\n${fixture('aggregate/rfc9990-sample.xml')}`,
      ),
    });
    await t.database.db
      .update(inboundMessages)
      .set({ receivedAt: sql`now() - interval '10 minutes'` })
      .where(eq(inboundMessages.id, id!));
    await t.jobs.send(maintenanceJob, {});
    const row = await waitUntil(() => messageRow(id!), 'the stranded message to be processed', {
      until: (r) => r.status !== 'received',
    });
    expect(row.status).toBe('processed');
    expect((await reportsOf(owner)).items.map((r) => r.orgName)).toContain('Sample Reporter');
  });
});

describe('several messages on one connection', () => {
  it('stores each with only its own recipients', async () => {
    const transport = nodemailer.createTransport({
      pool: true,
      maxConnections: 1,
      host: '127.0.0.1',
      port: smtp.port,
      secure: false,
      ignoreTLS: true,
    });
    const [one, two] = await Promise.all(
      ['dmarc+one', 'dmarc+two'].map((local) =>
        transport.sendMail({ from: 'r@reporter.example.org', to: `${local}@${INBOUND}`, subject: local, text: 'x' }),
      ),
    );
    transport.close();
    const idOf = (response: string) => Number(/Queued as (\d+)/.exec(response)![1]);
    expect((await messageRow(idOf(one.response))).rcptTo).toEqual([`dmarc+one@${INBOUND}`]);
    expect((await messageRow(idOf(two.response))).rcptTo).toEqual([`dmarc+two@${INBOUND}`]);
  });
});

describe('what the listener refuses', () => {
  it('refuses to relay, unknown mailboxes and oversized messages with proper SMTP codes', async () => {
    await expect(send({ to: 'someone@gmail.com', text: 'x' })).rejects.toMatchObject({
      responseCode: 550,
      response: expect.stringContaining('Relay access denied'),
    });
    await expect(send({ to: `postmaster-x@${INBOUND}`, text: 'x' })).rejects.toMatchObject({
      responseCode: 550,
      response: expect.stringContaining('No such mailbox'),
    });
    const big = Buffer.alloc(LIMIT_BYTES + 1024, 'a');
    await expect(
      send({ to: `dmarc@${INBOUND}`, attachments: [{ filename: 'big.xml', content: big }] }),
    ).rejects.toMatchObject({ responseCode: 552 });
    const [{ n }] = await t.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(inboundMessages)
      .where(sql`size > ${LIMIT_BYTES}`);
    expect(n).toBe(0);
  });

  it(`answers 421 to more than ${MAX_CONNECTIONS_PER_IP} connections at once from one address`, async () => {
    // The earlier tests' senders hang up after their last reply: until the listener has seen them go,
    // they count against the limit too.
    await waitUntil(() => smtp.busy(), 'the listener to be done with the earlier connections', {
      until: (busy) => busy === 0,
    });
    const greetings = await Promise.all(
      Array.from({ length: MAX_CONNECTIONS_PER_IP + 1 }, async () => {
        const socket = connect(smtp.port, '127.0.0.1');
        const line = await new Promise<string>((resolve) => socket.once('data', (d) => resolve(d.toString())));
        return { socket, line };
      }),
    );
    const codes = greetings.map((g) => g.line.slice(0, 3)).sort();
    expect(codes.filter((c) => c === '220')).toHaveLength(MAX_CONNECTIONS_PER_IP);
    expect(codes.filter((c) => c === '421')).toHaveLength(1);
    for (const g of greetings) g.socket.destroy();
  });

  it('stays up when senders hang up before the greeting (port checks), and counts none of them', async () => {
    await waitUntil(() => smtp.busy(), 'the listener to be done with the earlier connections', {
      until: (busy) => busy === 0,
    });
    await Promise.all(
      Array.from({ length: 20 }, async () => {
        const socket = connect(smtp.port, '127.0.0.1');
        await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
        socket.destroy();
      }),
    );
    await waitUntil(() => smtp.busy(), 'the listener to see every hang-up', { until: (busy) => busy === 0 });
    // Still listening, and with its full allowance for this address.
    const greetings = await Promise.all(
      Array.from({ length: MAX_CONNECTIONS_PER_IP }, async () => {
        const socket = connect(smtp.port, '127.0.0.1');
        const line = await new Promise<string>((resolve) => socket.once('data', (d) => resolve(d.toString())));
        return { socket, line };
      }),
    );
    expect(greetings.map((g) => g.line.slice(0, 3))).toEqual(Array(MAX_CONNECTIONS_PER_IP).fill('220'));
    for (const g of greetings) g.socket.destroy();
  });
});
