import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SmtpListener } from '../platform/smtp/smtp-listener';
import { startDnsServer, type TestDnsServer } from '../test/dns-server';
import { createTestApp, startTestSmtpListener, type TestApp } from '../test/test-app';
import { waitUntil } from '../test/wait-until';
import {
  fastmailReportNow,
  fblMessages,
  LOOP_ZONE,
  ownerWithSends,
  sample,
  signedBy,
} from './loop-reports.test-support';

/*
 * Feedback loop reports mailed to fbl@INBOUND_DOMAIN over the real SMTP listener, processed by the job worker,
 * and read back through the API: a complaint counts once, for the owners of its domain, when the report's mail
 * proved it came from a feedback loop.
 */

const INBOUND = 'in.fbl.test';

let t: TestApp;
let dns: TestDnsServer;
let smtp: SmtpListener;

beforeAll(async () => {
  dns = await startDnsServer(LOOP_ZONE);
  t = await createTestApp({ work: true, env: { INBOUND_DOMAIN: INBOUND, DNS_SERVERS: dns.address } });
  smtp = await startTestSmtpListener(t);
});
afterAll(async () => {
  await smtp?.close();
  await t?.close();
  await dns?.close();
});

/** Mails `raw` to `to` over SMTP and waits for the job to process it: its inbound message row. */
async function deliver(raw: Buffer, to = `fbl@${INBOUND}`) {
  const before = await fblMessages(t);
  const transport = nodemailer.createTransport({ host: '127.0.0.1', port: smtp.port, secure: false, ignoreTLS: true });
  await transport
    .sendMail({ envelope: { from: 'bounces@fbl.fastmail.fm', to: [to] }, raw })
    .finally(() => transport.close());
  return waitUntil(
    async () => (await fblMessages(t)).find((row) => row.id > (before.at(-1)?.id ?? 0) && row.status !== 'received'),
    'the report to be processed',
  );
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
    const owner = await ownerWithSends(t, 'snt1.net', 4);
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

    // The integrations screen's status: the address to give the loops, and what they brought.
    const loops = (await owner.client.get('/api/feedback-loops')).json();
    expect(loops).toEqual({ address: `fbl@${INBOUND}`, complaints30d: 1, lastComplaintAt: expect.any(String) });
    expect(Date.now() - Date.parse(loops.lastComplaintAt)).toBeLessThan(2 * 24 * 3600 * 1000);

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
    const owner = await ownerWithSends(t, 'colony101.co.uk', 0);
    // Yahoo's real report, whose own signature (d=arf.mail.yahoo.com) cannot verify here, signed by a stranger.
    const outcome = await deliver(await signedBy('stranger.example', sample('yahoo-cfl.eml')));
    expect(outcome.status).toBe('failed');
    expect(outcome.result).toBe(
      "Not counted: the report's sender is not authenticated. The report says it comes from arf.mail.yahoo.com, but the mail proved only stranger.example (a DKIM signature or DMARC pass).",
    );
    expect((await owner.client.get('/api/delivery-events?eventType=complaint')).json()).toEqual([]);
    expect((await owner.client.get('/api/feedback-loops')).json()).toMatchObject({
      complaints30d: 0,
      lastComplaintAt: null,
    });
    expect((await t.app.inject({ method: 'GET', url: '/api/feedback-loops' })).statusCode).toBe(401);
  });
});
