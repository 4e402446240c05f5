import { and, eq } from 'drizzle-orm';
import { generateKeyPairSync } from 'node:crypto';
import { readFileSync } from 'node:fs';
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { domains, inboundMessages } from '../platform/db/schema/index';
import type { SmtpListener } from '../platform/smtp/smtp-listener';
import { verifiedOwnerOf } from '../dmarc/verified-owner.test-support';
import { dkimSigned } from '../test/dkim-signed';
import { startDnsServer, type TestDnsServer } from '../test/dns-server';
import { createTestApp, startTestSmtpListener, type TestApp } from '../test/test-app';
import { waitUntil } from '../test/wait-until';

/*
 * Feedback loop reports mailed to fbl@INBOUND_DOMAIN over the real SMTP listener, processed by the job worker,
 * and read back through the API: a complaint counts once, for the owners of its domain, when the report's mail
 * proved it came from a feedback loop. The reports are the real samples of fixtures/ (README.md names each source).
 */

const INBOUND = 'in.fbl.test';
const sample = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'latin1');

/** The Fastmail report (through Return Path) as if it arrived now: its Arrival-Date is the one line changed. */
const fastmailReportNow = () =>
  sample('fastmail-returnpath.eml').replace(
    'Arrival-Date: Fri, 27 Sep 2013 16:08:16 +0000',
    `Arrival-Date: ${new Date().toUTCString()}`,
  );

let t: TestApp;
let dns: TestDnsServer;
let smtp: SmtpListener;
let signingKey: string;

beforeAll(async () => {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  signingKey = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const key = { TXT: [`v=DKIM1; k=rsa; p=${publicKey.export({ type: 'spki', format: 'der' }).toString('base64')}`] };
  dns = await startDnsServer({
    // The loops' own DMARC records make fbl.fastmail.fm part of fastmail.fm (the RFC 9989 tree walk).
    '_dmarc.fastmail.fm': { TXT: ['v=DMARC1; p=none'] },
    's1._domainkey.fbl.fastmail.fm': key,
    // A stranger who signs its own mail: it proves who it is, not that it runs a feedback loop.
    's1._domainkey.stranger.example': key,
  });
  t = await createTestApp({ work: true, env: { INBOUND_DOMAIN: INBOUND, DNS_SERVERS: dns.address } });
  smtp = await startTestSmtpListener(t);
});
afterAll(async () => {
  await smtp?.close();
  await t?.close();
  await dns?.close();
});

/** The report as the loop's mail server would send it: CRLF lines (SMTP's), DKIM-signed by `domain`. */
const signedBy = async (domain: string, raw: string) =>
  (
    await dkimSigned(Buffer.from(raw.replace(/\r?\n/g, '\r\n'), 'latin1'), {
      domain,
      selector: 's1',
      privatePem: signingKey,
    })
  ).toString('latin1');

/** Mails `raw` to `to` over SMTP and waits for the job to process it: its inbound message row. */
async function deliver(raw: string, to = `fbl@${INBOUND}`) {
  const before = await fblMessages();
  const transport = nodemailer.createTransport({ host: '127.0.0.1', port: smtp.port, secure: false, ignoreTLS: true });
  await transport
    .sendMail({ envelope: { from: 'bounces@fbl.fastmail.fm', to: [to] }, raw: Buffer.from(raw, 'latin1') })
    .finally(() => transport.close());
  return waitUntil(
    async () => (await fblMessages()).find((row) => row.id > (before.at(-1)?.id ?? 0) && row.status !== 'received'),
    'the report to be processed',
  );
}

const fblMessages = () =>
  t.database.db.select().from(inboundMessages).where(eq(inboundMessages.kind, 'fbl')).orderBy(inboundMessages.id);

async function ownerWithSends(domain: string, delivered: number) {
  const owner = await verifiedOwnerOf(t, domain);
  for (let i = 0; i < delivered; i++) {
    const sent = await owner.client.post('/api/events', {
      type: 'delivered',
      message_id: `sent-${i}@${domain}`,
      recipient: `reader${i}@fastmail.co.uk`,
      timestamp: new Date(Date.now() - 60_000).toISOString(),
      domain,
    });
    expect(sent.json()).toMatchObject({ accepted: 1 });
  }
  const [row] = await t.database.db
    .select({ id: domains.id })
    .from(domains)
    .where(and(eq(domains.userId, owner.user.id), eq(domains.domain, domain)));
  return { ...owner, domainId: row.id };
}

describe('complaints mailed to fbl@ by feedback loops', () => {
  // First: the later tests verify snt1.net.
  it('keeps only the headers of a complaint about a domain nobody verified', async () => {
    const outcome = await deliver(await signedBy('fbl.fastmail.fm', sample('hotmail-jmrp-no-arf.eml')));
    expect(outcome.status).toBe('unrouted');
    expect(outcome.result).toBe('No user has verified snt1.net.');
    expect(outcome.bodyDroppedAt).not.toBeNull();
    expect(outcome.raw!.toString('latin1')).not.toContain("Manager's Special Deal");
  });

  it('counts a feedback loop’s complaint once, in the domain’s complaint rate, with its recipient and sending IP', async () => {
    const owner = await ownerWithSends('snt1.net', 4);
    const report = await signedBy('fbl.fastmail.fm', fastmailReportNow());

    const first = await deliver(report, `fbl+fastmail@${INBOUND}`);
    expect(first.status).toBe('processed');
    expect(first.result).toContain('Report authenticated: signed by fastmail.fm (Fastmail feedback loop).');
    expect(first.result).toContain(`Complaint about snt1.net for user ${owner.user.id}: counted.`);
    expect(first.reportDomains).toEqual(['snt1.net']);

    const status = (await owner.client.get(`/api/v1/domains/${owner.domainId}/status`)).json();
    expect(status.delivery).toMatchObject({ sent: 4, delivered: 4, complaints: 1, complaintRate: 25 });
    const timeline = (await owner.client.get(`/api/domains/${owner.domainId}/timeline?days=7`)).json();
    expect(timeline.series).toContainEqual(
      expect.objectContaining({ key: 'complaint:rate', points: [expect.objectContaining({ value: 25, sample: 4 })] }),
    );
    const complaints = (await owner.client.get('/api/delivery-events?eventType=complaint')).json();
    expect(complaints).toEqual([
      expect.objectContaining({
        source: 'fbl',
        messageId: '2013.09.26T104634408.b@snt1.net',
        recipient: '3474ab6864477b6e234bbf21feead499@fastmail.co.uk',
        domain: 'snt1.net',
        sendingIp: '83.222.233.166',
      }),
    ]);

    // The loop sends the same complaint again: it changes nothing.
    const copy = await deliver(report);
    expect(copy.status).toBe('processed');
    expect(copy.result).toContain(`Complaint about snt1.net for user ${owner.user.id}: counted before (a copy).`);
    expect((await owner.client.get(`/api/v1/domains/${owner.domainId}/status`)).json().delivery).toMatchObject({
      complaints: 1,
      complaintRate: 25,
    });
  });

  it('does not count a report whose mail proves no feedback loop sent it, and says why', async () => {
    const owner = await ownerWithSends('colony101.co.uk', 0);
    // Yahoo's real report, whose own signature (d=arf.mail.yahoo.com) cannot verify here, signed by a stranger.
    const outcome = await deliver(await signedBy('stranger.example', sample('yahoo-cfl.eml')));
    expect(outcome.status).toBe('failed');
    expect(outcome.result).toBe(
      "Not counted: the report's sender is not authenticated. The report says it comes from arf.mail.yahoo.com, but the mail proved only stranger.example (a DKIM signature or DMARC pass).",
    );
    expect((await owner.client.get('/api/delivery-events?eventType=complaint')).json()).toEqual([]);
  });
});
