import { generateKeyPairSync } from 'node:crypto';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InboxTestReport } from '@contracts/inbox-tests';
import type { DnsResolver } from '../../platform/dns/resolver';
import { dkimSigned } from '../../test/dkim-signed';
import { startDnsServer, type TestDnsServer, loopbackResolver } from '../../test/dns-server';
import { analyseMessage, type AnalyseDeps } from './analyse-message';

const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const publicDer = publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
const privatePem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();

/** A newsletter done right: Date, Message-ID, one-click unsubscribe, text and HTML. */
const message = (domain: string, body = 'Hello from the brand. Our spring collection is here.') =>
  Buffer.from(
    [
      `From: Brand News <news@${domain}>`,
      'To: test-1-abc@inbox.localhost',
      'Subject: Spring collection [TEST-1]',
      'Date: Mon, 23 Nov 2026 10:00:00 +0000',
      `Message-ID: <m1@${domain}>`,
      `List-Unsubscribe: <https://${domain}/unsubscribe?u=1>, <mailto:unsubscribe@${domain}>`,
      'List-Unsubscribe-Post: List-Unsubscribe=One-Click',
      'MIME-Version: 1.0',
      'Content-Type: multipart/alternative; boundary="b1"',
      '',
      '--b1',
      'Content-Type: text/plain; charset=utf-8',
      '',
      body,
      '--b1',
      'Content-Type: text/html; charset=utf-8',
      '',
      `<html><body><p>${body}</p><p><a href="https://${domain}/spring">See the collection</a></p></body></html>`,
      '--b1--',
      '',
    ].join('\r\n'),
  );

const signed = (raw: Buffer, domain: string) => dkimSigned(raw, { domain, selector: 's1', privatePem });

const brandEnvelope = { remoteIp: '192.0.2.10', helo: 'mta1.brand-mail.com', mailFrom: 'bounce@brand-mail.com' };
const ids = (report: InboxTestReport) => report.deductions.map((d) => d.id);
const finding = (report: InboxTestReport, id: string) => report.findings.find((f) => f.id === id);

let dns: TestDnsServer;
let deps: AnalyseDeps;
let resolver: DnsResolver;

beforeAll(async () => {
  const key = { TXT: [`v=DKIM1; k=rsa; p=${publicDer}`] };
  const spf = { TXT: ['v=spf1 ip4:192.0.2.10 -all'] };
  dns = await startDnsServer({
    'brand-mail.com': spf,
    's1._domainkey.brand-mail.com': key,
    '_dmarc.brand-mail.com': { TXT: ['v=DMARC1; p=reject; rua=mailto:dmarc@brand-mail.com'] },
    'nodmarc-brand.com': spf,
    's1._domainkey.nodmarc-brand.com': key,
    'flaky-brand.com': spf,
    's1._domainkey.flaky-brand.com': key,
    '10.2.0.192.in-addr.arpa': { PTR: ['mta1.brand-mail.com'] },
    'mta1.brand-mail.com': { A: ['192.0.2.10'] },
  });
  dns.servfail.add('_dmarc.flaky-brand.com');
  resolver = loopbackResolver(dns);
  deps = { dns: resolver, env: { INBOUND_DOMAIN: 'inbox.localhost', SPAMD_HOST: undefined } };
});
afterAll(() => dns?.close());

describe('analyseMessage with a real SMTP envelope', () => {
  it('scores a signed, aligned, well-formed message from a well-run IP 10/10', async () => {
    const report = InboxTestReport.parse(
      await analyseMessage(await signed(message('brand-mail.com'), 'brand-mail.com'), brandEnvelope, deps),
    );
    expect(report).toMatchObject({
      simulated: false,
      score: 10,
      verdict: 'Excellent',
      deductions: [],
      envelope: brandEnvelope,
      spamAssassin: null,
    });
    expect(report.authentication?.dmarc).toMatchObject({
      result: 'pass',
      policy: 'reject',
      spfAligned: true,
      dkimAligned: true,
    });
    expect(report.authentication?.authenticationResults).toMatch(/^Authentication-Results: inbox\.localhost;/);
    expect(report.connectingIp).toMatchObject({ ip: '192.0.2.10', confirmedName: 'mta1.brand-mail.com' });
    expect(report.content.subject).toBe('Spring collection [TEST-1]');
    expect(new Set(report.findings.map((f) => f.category))).toEqual(
      new Set(['authentication', 'reputation', 'content']),
    );
    expect(Date.parse(report.analysedAt)).toBeGreaterThan(Date.now() - 60_000);
  });

  it('explains a body changed after signing, and still passes DMARC through SPF', async () => {
    const raw = await signed(message('brand-mail.com'), 'brand-mail.com');
    const tampered = Buffer.from(
      raw.toString().replaceAll('Our spring collection is here.', 'Our summer collection is here.'),
    );
    const report = InboxTestReport.parse(await analyseMessage(tampered, brandEnvelope, deps));
    expect(ids(report)).toEqual(['authentication.dkim-fail']);
    expect(report.deductions[0]).toMatchObject({
      deduction: 2,
      fix: expect.stringContaining('Sign as the very last step'),
    });
    expect(finding(report, 'authentication.dkim-fail')?.detail).toContain('body hash did not verify');
    expect(report.authentication?.dmarc?.result).toBe('pass');
    expect(report).toMatchObject({ score: 8, verdict: 'Good' });
  });

  it('charges SPF and reverse DNS for mail from an IP the domain does not list', async () => {
    const envelope = { remoteIp: '::ffff:203.0.113.66', helo: 'unknown.example', mailFrom: 'bounce@brand-mail.com' };
    const report = InboxTestReport.parse(
      await analyseMessage(await signed(message('brand-mail.com'), 'brand-mail.com'), envelope, deps),
    );
    expect(ids(report)).toEqual(['authentication.spf-fail', 'reputation.no-ptr']);
    expect(report.deductions[0].fix).toContain('ip4:203.0.113.66');
    expect(report.deductions[1].fix).toContain('pointing back to 203.0.113.66');
    expect(report.connectingIp?.ip).toBe('203.0.113.66');
    expect(report.score).toBe(6.5);
  });

  it('asks for a DMARC record where there is none', async () => {
    const envelope = { ...brandEnvelope, mailFrom: 'bounce@nodmarc-brand.com' };
    const report = InboxTestReport.parse(
      await analyseMessage(await signed(message('nodmarc-brand.com'), 'nodmarc-brand.com'), envelope, deps),
    );
    expect(ids(report)).toEqual(['authentication.dmarc-none']);
    expect(report.deductions[0]).toMatchObject({
      deduction: 1.5,
      fix: expect.stringContaining(
        'TXT record at _dmarc.nodmarc-brand.com: "v=DMARC1; p=none; rua=mailto:dmarc@inbox.localhost"',
      ),
    });
  });

  it("shows an unsigned message with no signatures (not mailauth's placeholder) and charges for it", async () => {
    const report = InboxTestReport.parse(await analyseMessage(message('brand-mail.com'), brandEnvelope, deps));
    expect(report.authentication?.dkim).toEqual([]);
    expect(report.authentication?.authenticationResults).toContain('dkim=none');
    expect(ids(report)).toEqual(['authentication.dkim-none']);
  });

  it('turns a DNS failure into a temperror finding, not an exception', async () => {
    const envelope = { ...brandEnvelope, mailFrom: 'bounce@flaky-brand.com' };
    const report = InboxTestReport.parse(
      await analyseMessage(await signed(message('flaky-brand.com'), 'flaky-brand.com'), envelope, deps),
    );
    expect(report.authentication?.dmarc?.result).toBe('temperror');
    expect(ids(report)).toEqual(['authentication.dmarc-temperror']);
  });

  it('never throws on hostile input or an envelope without an IP', async () => {
    const inputs = [
      Buffer.alloc(0),
      Buffer.from('\u0000\u00ff\r\n\r\n\u0000'),
      Buffer.from('DKIM-Signature: v=1; a=rsa-sha256; d=; s=; b=;\r\nFrom: <>\r\nFrom: a@b\r\n\r\nx'),
      Buffer.alloc(200_000, 'A'),
    ];
    for (const raw of inputs) {
      const report = InboxTestReport.parse(await analyseMessage(raw, { remoteIp: '', helo: '', mailFrom: '' }, deps));
      expect(report.connectingIp).toBeNull();
      expect(finding(report, 'reputation.unavailable')?.detail).toContain('no valid IP address');
      expect(report.score).toBeGreaterThanOrEqual(0);
    }
  });
});

describe('analyseMessage of a simulated message', () => {
  it('checks content only and says why authentication and the IP are missing', async () => {
    const report = InboxTestReport.parse(await analyseMessage(message('brand-mail.com'), null, deps));
    expect(report).toMatchObject({
      simulated: true,
      envelope: null,
      authentication: null,
      connectingIp: null,
      spamAssassin: null,
      score: 10,
      verdict: 'Excellent',
    });
    expect(finding(report, 'authentication.not-checked')).toMatchObject({ severity: 'info', deduction: 0 });
    expect(report.findings.filter((f) => f.category === 'reputation')).toEqual([]);
    expect(report.engines.find((e) => e.id === 'spamassassin')?.status).toBe('not-configured');
  });
});

describe('analyseMessage with SPAMD_HOST', () => {
  const servers: Server[] = [];
  afterAll(() => Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve)))));

  /** The messages the stand-in spamd was asked about. */
  const asked: string[] = [];

  /** Answers every REPORT as spamd would for a spam verdict of 7.0/5.0 with one rule. */
  async function spamd(): Promise<string> {
    const server = createServer((socket) => {
      let received = Buffer.alloc(0);
      socket.on('data', (chunk) => {
        received = Buffer.concat([received, chunk]);
        const end = received.indexOf('\r\n\r\n');
        const length = /Content-length: (\d+)/.exec(received.subarray(0, Math.max(0, end)).toString());
        if (end < 0 || !length || received.length - end - 4 < Number(length[1])) return;
        asked.push(received.subarray(end + 4).toString('latin1'));
        const body =
          ' pts rule name              description\n---- ---------------------- --------------------------------------------------\n 7.0 BAYES_99               BODY: Bayes spam probability is 99 to 100%\n';
        socket.end(`SPAMD/1.1 0 EX_OK\r\nContent-length: ${body.length}\r\nSpam: True ; 7.0 / 5.0\r\n\r\n${body}`);
      });
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  it("adds spamd's verdict and its deduction, for received and simulated messages", async () => {
    const withSpamd = { ...deps, env: { ...deps.env, SPAMD_HOST: await spamd() } };
    for (const envelope of [brandEnvelope, null]) {
      const report = InboxTestReport.parse(
        await analyseMessage(await signed(message('brand-mail.com'), 'brand-mail.com'), envelope, withSpamd),
      );
      expect(report.spamAssassin).toEqual({
        score: 7,
        threshold: 5,
        isSpam: true,
        rules: [{ name: 'BAYES_99', score: 7, description: 'BODY: Bayes spam probability is 99 to 100%' }],
        error: null,
      });
      expect(report.deductions).toEqual([expect.objectContaining({ id: 'spamassassin.spam', deduction: 2 })]);
      expect(report.score).toBe(8);
      expect(report.engines.map((e) => [e.id, e.status])).toEqual([
        ['inboxpulse', 'ran'],
        ['spamassassin', 'ran'],
      ]);
    }
    // The received message reaches spamd as our MX hands it on: Return-Path and Received first, with
    // the forward-confirmed name of the IP; the simulated one as it is.
    expect(asked[0]).toMatch(
      /^Return-Path: <bounce@brand-mail\.com>\r\nReceived: from mta1\.brand-mail\.com \(mta1\.brand-mail\.com \[192\.0\.2\.10\]\)\r\n\tby inbox\.localhost \(InboxPulse\) with ESMTP;\r\n\t\w{3}, \d{2} \w{3} \d{4} \d{2}:\d{2}:\d{2} \+0000\r\nDKIM-Signature:/,
    );
    expect(asked[1]).toMatch(/^DKIM-Signature:/);
  });

  it('reports a spamd that is down without costing points', async () => {
    const report = InboxTestReport.parse(
      await analyseMessage(message('brand-mail.com'), null, {
        ...deps,
        env: { ...deps.env, SPAMD_HOST: '127.0.0.1:1' },
      }),
    );
    expect(report.spamAssassin).toMatchObject({
      score: null,
      isSpam: null,
      error: expect.stringContaining('refused the connection'),
    });
    expect(finding(report, 'spamassassin.unavailable')).toMatchObject({ severity: 'info', deduction: 0 });
    expect(report.score).toBe(10);
    expect(report.engines.find((e) => e.id === 'spamassassin')?.status).toBe('failed');
  });
});
