import { and, eq } from 'drizzle-orm';
import { generateKeyPairSync } from 'node:crypto';
import { rmSync } from 'node:fs';
import nodemailer, { type SendMailOptions } from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ComplianceRule, ComplianceScorecard } from '@contracts/compliance';
import { addDays, utcDay } from '@contracts/utc-day';
import { evaluateAlerts } from '../alerts/evaluation/evaluate-alerts';
import { alerts, integrations, postmasterStats } from '../platform/db/schema/index';
import type { SmtpListener } from '../platform/smtp/smtp-listener';
import { startDnsServer, type TestDnsServer } from '../test/dns-server';
import { hasOpenssl, makeSelfSignedCert } from '../test/self-signed-cert';
import { createTestApp, signUp, startTestSmtpListener, type TestApp, type TestClient } from '../test/test-app';
import { waitUntil } from '../test/wait-until';
import { reportXml } from '../dmarc/report-xml.test-support';
import { uploadReport } from '../dmarc/upload-client.test-support';

/*
 * The compliance scorecard through the API, from real stored evidence: the domain's DNS checks against the
 * loopback zone, inbox-test messages sent over real SMTP and analysed, delivery events posted to the event
 * API, and Postmaster Tools days as the import stores them.
 */

const INBOUND = 'in.inboxpulse.test';
const key = (bits: number) => {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: bits });
  return {
    publicDer: publicKey.export({ type: 'spki', format: 'der' }).toString('base64'),
    privatePem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  };
};
const strong = key(2048);
const weak = key(512);

let t: TestApp;
let dns: TestDnsServer;
let smtp: SmtpListener;

beforeAll(async () => {
  dns = await startDnsServer({
    // Sends from loopback with SPF, a 2048-bit DKIM key, DMARC p=none and forward-confirmed reverse DNS.
    'compliant-brand.com': {
      TXT: ['v=spf1 ip4:127.0.0.1 -all'],
      MX: [{ exchange: 'mx.compliant-brand.com', priority: 10 }],
    },
    's1._domainkey.compliant-brand.com': { TXT: [`v=DKIM1; k=rsa; p=${strong.publicDer}`] },
    '_dmarc.compliant-brand.com': { TXT: ['v=DMARC1; p=none'] },
    '1.0.0.127.in-addr.arpa': { PTR: ['mta.compliant-brand.com'] },
    'mta.compliant-brand.com': { A: ['127.0.0.1'] },
    // SPF that does not list loopback, a 512-bit key, no DMARC.
    'careless-brand.com': { TXT: ['v=spf1 ip4:192.0.2.1 -all'] },
    's1._domainkey.careless-brand.com': { TXT: [`v=DKIM1; k=rsa; p=${weak.publicDer}`] },
    // A sound key too, so a test message's signature verifies and only what it covers is at fault.
    's2._domainkey.careless-brand.com': { TXT: [`v=DKIM1; k=rsa; p=${strong.publicDer}`] },
    // Sends through two servers of its own (DMARC reports show them passing); one has forward-confirmed reverse DNS.
    'relay-brand.com': { TXT: ['v=spf1 ip4:203.0.113.0/24 -all'] },
    '_dmarc.relay-brand.com': { TXT: ['v=DMARC1; p=none'] },
    '10.113.0.203.in-addr.arpa': { PTR: ['mail10.relay-brand.com'] },
    'mail10.relay-brand.com': { A: ['203.0.113.10'] },
    // The recipients' providers, by their real MX hosts (delivery events name the provider from them).
    'gmail.com': { MX: [{ exchange: 'gmail-smtp-in.l.google.com', priority: 5 }] },
    'yahoo.com': { MX: [{ exchange: 'mta5.am0.yahoodns.net', priority: 1 }] },
    'outlook.com': { MX: [{ exchange: 'outlook-com.olc.protection.outlook.com', priority: 5 }] },
  });
  t = await createTestApp({ work: true, env: { INBOUND_DOMAIN: INBOUND, DNS_SERVERS: dns.address } });
  smtp = await startTestSmtpListener(t);
});
afterAll(async () => {
  await smtp?.close();
  await t?.close();
  await dns?.close();
});

const scorecard = async (client: TestClient, domainId: number) => {
  const res = await client.get(`/api/domains/${domainId}/compliance`);
  expect(res.statusCode).toBe(200);
  return res.json() as ComplianceScorecard;
};
const rule = (card: ComplianceScorecard, id: string): ComplianceRule => {
  const found = card.rules.find((r) => r.id === id);
  if (!found) throw new Error(`no rule ${id}`);
  return found;
};
const verdicts = (card: ComplianceScorecard) => Object.fromEntries(card.rules.map((r) => [r.id, r.verdict]));

/** A domain added and checked against the zone, its ownership record published so it is verified and healthy. */
async function checkedDomain(client: TestClient, name: string): Promise<number> {
  const domain = (await client.post('/api/domains', { domain: name })).json();
  dns.zone[`_inboxpulse.${name}`] = { TXT: [domain.verificationRecord.value] };
  expect((await client.post(`/api/domains/${domain.id}/verify`)).statusCode).toBe(200);
  return domain.id;
}

/**
 * An inbox test whose message is sent From `domain` over SMTP, DKIM-signed with s1 (the fields nodemailer signs by
 * default, or `signedFields`); resolves once the scorecard sees it.
 */
async function sendTestMessage(
  client: TestClient,
  domainId: number,
  domain: string,
  mail: SendMailOptions,
  signing: { privatePem: string; signedFields?: string },
  liveOneClick = false,
  /** A listener that offers STARTTLS, to send over TLS instead of plain SMTP. */
  tlsListener?: SmtpListener,
): Promise<number> {
  // The live one-click POST is off unless asked for: the links' hosts do not exist, and mostly the headers are judged.
  const test = (
    await client.post('/api/inbox-tests', { testType: 'automatic', oneClickUnsubscribeTest: liveOneClick })
  ).json();
  const transport = nodemailer.createTransport({
    host: '127.0.0.1',
    port: (tlsListener ?? smtp).port,
    secure: false,
    ...(tlsListener ? { requireTLS: true, tls: { rejectUnauthorized: false } } : { ignoreTLS: true }),
    name: `mta.${domain}`,
    dkim: {
      domainName: domain,
      keySelector: 's1',
      privateKey: signing.privatePem,
      ...(signing.signedFields ? { headerFieldNames: signing.signedFields } : {}),
    },
  });
  await transport
    .sendMail({
      from: `News <news@${domain}>`,
      to: test.testEmailAddress,
      envelope: { from: `bounce@${domain}`, to: test.testEmailAddress },
      subject: `[TEST-${test.id}] March news`,
      text: 'Our March news.\n\nUnsubscribe: https://compliant-brand.com/u/42\n',
      ...mail,
    })
    .finally(() => transport.close());
  await waitUntil(() => scorecard(client, domainId), `test ${test.id} to reach the scorecard`, {
    until: (card) => rule(card, 'gmail-bulk:dmarc-aligned').evidence.some((e) => e.testId === test.id),
    timeoutMs: 20_000,
  });
  return test.id;
}

/** The fields a sender signs so that Gmail trusts its one-click headers: both of them among the usual ones. */
const ONE_CLICK_SIGNED =
  'From:Subject:Date:Message-ID:To:MIME-Version:Content-Type:List-Unsubscribe:List-Unsubscribe-Post';

const ONE_CLICK_HEADERS = {
  'List-Unsubscribe': '<https://compliant-brand.com/u/42>, <mailto:unsubscribe@compliant-brand.com>',
  'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
};

describe('GET /api/domains/:id/compliance', () => {
  it('is owner-scoped: 401 signed out, 404 for another user’s domain, 400 for a bad id', async () => {
    const owner = await signUp(t.app);
    const domain = (await owner.client.post('/api/domains', { domain: 'scoped-brand.com' })).json();
    expect((await t.app.inject({ method: 'GET', url: `/api/domains/${domain.id}/compliance` })).statusCode).toBe(401);
    const stranger = await signUp(t.app);
    const other = await stranger.client.get(`/api/domains/${domain.id}/compliance`);
    expect(other.statusCode).toBe(404);
    expect(other.json().message).toBe('Domain not found');
    expect((await owner.client.get('/api/domains/abc/compliance')).statusCode).toBe(400);
  });

  it('before any check or test message every rule is unknown, each saying why, with its provider’s words and page', async () => {
    const { client } = await signUp(t.app);
    const domain = (await client.post('/api/domains', { domain: 'unchecked-brand.com' })).json();
    const card = await scorecard(client, domain.id);
    expect(card.counts).toEqual({ met: 0, notMet: 0, unknown: card.rules.length });
    expect(new Set(card.rules.map((r) => r.provider))).toEqual(
      new Set(['gmail', 'gmail-bulk', 'yahoo', 'microsoft', 'apple']),
    );
    expect(rule(card, 'gmail:tls').evidence[0].text).toBe('Google Postmaster Tools is not connected for this domain.');
    expect(rule(card, 'gmail-bulk:one-click-unsubscribe')).toMatchObject({
      wording:
        'Marketing messages and subscribed messages must support one-click unsubscribe, and include a clearly visible unsubscribe link in the message body.',
      sourceUrl: 'https://support.google.com/a/answer/81126',
      evidence: [{ text: 'No inbox-test message From this domain has been received yet.', at: null }],
    });
    expect(rule(card, 'microsoft:spf-and-dkim').sourceUrl).toMatch(/^https:\/\/techcommunity\.microsoft\.com\//);
    expect(rule(card, 'apple:message-format').sourceUrl).toBe('https://support.apple.com/en-us/102322');
    expect(rule(card, 'yahoo:spam-rate').evidence[0].text).toBe('No delivered events to Yahoo in the last 30 days.');
  });

  it('judges bulk mail From a mailbox provider’s own domain not met before any test message', async () => {
    const { client } = await signUp(t.app);
    const domain = (await client.post('/api/domains', { domain: 'mail.yahoo.com' })).json();
    expect(rule(await scorecard(client, domain.id), 'gmail:no-provider-impersonation')).toMatchObject({
      verdict: 'not_met',
      evidence: [{ source: 'dns-check', text: "DNS check: mail.yahoo.com is a mailbox provider's own domain." }],
    });
  });

  it('judges the set-up rules from the DNS checks: records published and key lengths', async () => {
    const { client } = await signUp(t.app);
    const good = await scorecard(client, await checkedDomain(client, 'compliant-brand.com'));
    expect(verdicts(good)).toMatchObject({
      'gmail:spf-or-dkim': 'met',
      'gmail-bulk:spf-and-dkim': 'met',
      'gmail:dkim-key-length': 'met',
      'gmail-bulk:dmarc-published': 'met',
      'yahoo:dmarc-published': 'met',
      'microsoft:dmarc-published': 'met',
      // Alignment is what a receiver concludes for a message: no message yet.
      'gmail-bulk:dmarc-aligned': 'unknown',
    });
    expect(rule(good, 'gmail:dkim-key-length').evidence[0].text).toBe(
      'DNS check: key at s1._domainkey: rsa, 2048 bits.',
    );
    expect(rule(good, 'gmail-bulk:dmarc-published').evidence[0]).toMatchObject({
      source: 'dns-check',
      text: 'DNS check: DMARC record found at _dmarc.compliant-brand.com with p=none.',
    });
    expect(rule(good, 'gmail-bulk:dmarc-published').evidence[0].at).not.toBeNull();

    const bad = await scorecard(client, await checkedDomain(client, 'careless-brand.com'));
    expect(verdicts(bad)).toMatchObject({
      'gmail:dkim-key-length': 'not_met',
      'gmail-bulk:dmarc-published': 'not_met',
      'microsoft:dmarc-published': 'not_met',
    });
    expect(rule(bad, 'gmail:dkim-key-length')).toMatchObject({
      evidence: [{ text: 'DNS check: key at s1._domainkey: rsa, 512 bits.' }],
      fix: expect.stringContaining('2048-bit'),
    });
    expect(rule(bad, 'gmail-bulk:dmarc-published').evidence[0].text).toBe('DNS check: no DMARC record found.');
    expect(bad.counts.notMet).toBeGreaterThanOrEqual(3);
  });

  it('judges a test message: one-click unsubscribe signed by DKIM, alignment, reverse DNS and RFC 5322 form met', async () => {
    const { client } = await signUp(t.app);
    const id = await checkedDomain(client, 'compliant-brand.com');
    const testId = await sendTestMessage(
      client,
      id,
      'compliant-brand.com',
      { headers: ONE_CLICK_HEADERS },
      {
        privatePem: strong.privatePem,
        signedFields: ONE_CLICK_SIGNED,
      },
    );
    const card = await scorecard(client, id);
    expect(verdicts(card)).toMatchObject({
      'gmail-bulk:one-click-unsubscribe': 'met',
      'yahoo:one-click-unsubscribe': 'met',
      'gmail-bulk:dmarc-aligned': 'met',
      'microsoft:spf-and-dkim': 'met',
      'gmail:reverse-dns': 'met',
      'apple:reverse-dns': 'met',
      'gmail:message-format': 'met',
      'gmail:no-provider-impersonation': 'met',
    });
    expect(rule(card, 'gmail-bulk:one-click-unsubscribe').evidence[0]).toMatchObject({
      source: 'inbox-test',
      testId,
      text: `Test message of inbox test ${testId}: List-Unsubscribe with an https: URI and List-Unsubscribe=One-Click, both signed by d=compliant-brand.com.`,
    });
    expect(rule(card, 'gmail-bulk:one-click-unsubscribe').evidence.map((e) => e.text)).toContain(
      `Test message of inbox test ${testId}: the body shows an unsubscribe link.`,
    );
    // Sent over plain SMTP, as the listener recorded it.
    expect(rule(card, 'gmail:tls')).toMatchObject({ verdict: 'not_met' });
    expect(rule(card, 'gmail:tls').evidence.map((e) => e.text)).toContain(
      `Test message of inbox test ${testId}: the sending server handed it over without TLS (plain SMTP).`,
    );
    expect(rule(card, 'gmail:reverse-dns').evidence[0].text).toBe(
      `Test message of inbox test ${testId}: 127.0.0.1 has PTR mta.compliant-brand.com, which resolves back to 127.0.0.1.`,
    );
    expect(rule(card, 'gmail-bulk:dmarc-aligned').evidence[0].text).toBe(
      `Test message of inbox test ${testId}: From domain compliant-brand.com: SPF aligned, DKIM aligned (DMARC pass).`,
    );
  });

  it.skipIf(!hasOpenssl)(
    'judges TLS met when the test message came over STARTTLS (needs openssl for the certificate)',
    async () => {
      const { key: tlsKey, cert, dir } = makeSelfSignedCert(INBOUND);
      const tlsSmtp = await startTestSmtpListener(t, { SMTP_TLS_CERT: cert, SMTP_TLS_KEY: tlsKey });
      try {
        const { client } = await signUp(t.app);
        const id = await checkedDomain(client, 'compliant-brand.com');
        const testId = await sendTestMessage(
          client,
          id,
          'compliant-brand.com',
          { headers: ONE_CLICK_HEADERS },
          { privatePem: strong.privatePem },
          false,
          tlsSmtp,
        );
        const tls = rule(await scorecard(client, id), 'gmail:tls');
        expect(tls.verdict).toBe('met');
        expect(tls.evidence.map((e) => e.text)).toContainEqual(
          expect.stringMatching(
            new RegExp(
              `^Test message of inbox test ${testId}: the sending server handed it over with TLSv1\\.[23] TLS_`,
            ),
          ),
        );
      } finally {
        await tlsSmtp.close();
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );

  it('judges one-click unsubscribe not met when the body shows no unsubscribe link, however right the headers', async () => {
    const { client } = await signUp(t.app);
    const id = await checkedDomain(client, 'compliant-brand.com');
    const testId = await sendTestMessage(
      client,
      id,
      'compliant-brand.com',
      { headers: ONE_CLICK_HEADERS, text: 'Our March news, and nothing else.\n' },
      {
        privatePem: strong.privatePem,
        signedFields: ONE_CLICK_SIGNED,
      },
    );
    const card = await scorecard(client, id);
    // Both Gmail and Yahoo ask for the visible link beside the header.
    for (const id of ['gmail-bulk:one-click-unsubscribe', 'yahoo:one-click-unsubscribe']) {
      const oneClick = rule(card, id);
      expect(oneClick.verdict).toBe('not_met');
      expect(oneClick.evidence.map((e) => e.text)).toContain(
        `Test message of inbox test ${testId}: no visible unsubscribe link in the body.`,
      );
    }
  });

  it('judges one-click unsubscribe not met when the signature covering both fields fails to verify', async () => {
    const { client } = await signUp(t.app);
    const id = await checkedDomain(client, 'compliant-brand.com');
    // Signed with a key other than the one s1 publishes: the signature lists both fields but does not verify.
    const testId = await sendTestMessage(
      client,
      id,
      'compliant-brand.com',
      { headers: ONE_CLICK_HEADERS },
      {
        privatePem: weak.privatePem,
        signedFields: ONE_CLICK_SIGNED,
      },
    );
    const oneClick = rule(await scorecard(client, id), 'gmail-bulk:one-click-unsubscribe');
    expect(oneClick.verdict).toBe('not_met');
    expect(oneClick.evidence[0].text).toBe(
      `Test message of inbox test ${testId}: no passing DKIM signature covers both List-Unsubscribe and List-Unsubscribe-Post.`,
    );
  });

  it('judges a mailto: List-Unsubscribe met for Yahoo, whose page accepts it, and not met for Gmail, which needs the POST', async () => {
    const { client } = await signUp(t.app);
    const id = await checkedDomain(client, 'compliant-brand.com');
    const testId = await sendTestMessage(
      client,
      id,
      'compliant-brand.com',
      { headers: { 'List-Unsubscribe': '<mailto:unsubscribe@compliant-brand.com?subject=unsubscribe>' } },
      { privatePem: strong.privatePem },
    );
    const card = await scorecard(client, id);
    expect(verdicts(card)).toMatchObject({
      'gmail-bulk:one-click-unsubscribe': 'not_met',
      'yahoo:one-click-unsubscribe': 'met',
    });
    expect(rule(card, 'gmail-bulk:one-click-unsubscribe').evidence[0].text).toBe(
      `Test message of inbox test ${testId}: List-Unsubscribe has no https: URI; no List-Unsubscribe-Post.`,
    );
    expect(rule(card, 'yahoo:one-click-unsubscribe')).toMatchObject({
      fix: null,
      evidence: [
        {
          testId,
          text: `Test message of inbox test ${testId}: List-Unsubscribe has no https: URI; no List-Unsubscribe-Post; its mailto: URI is one Yahoo accepts (Yahoo highly recommends the RFC 8058 POST).`,
        },
        { text: `Test message of inbox test ${testId}: the body shows an unsubscribe link.` },
      ],
    });
  });

  it('judges one-click unsubscribe not met when the live RFC 8058 POST of the link fails, however right the headers', async () => {
    const { client } = await signUp(t.app);
    const id = await checkedDomain(client, 'compliant-brand.com');
    const testId = await sendTestMessage(
      client,
      id,
      'compliant-brand.com',
      { headers: ONE_CLICK_HEADERS },
      {
        privatePem: strong.privatePem,
        signedFields: ONE_CLICK_SIGNED,
      },
      true,
    );
    const oneClick = rule(await scorecard(client, id), 'gmail-bulk:one-click-unsubscribe');
    expect(oneClick.verdict).toBe('not_met');
    // The headers are right; the link's host has no address in the zone, so the POST never reached it.
    expect(oneClick.evidence[0].text).toContain('both signed by d=compliant-brand.com');
    expect(oneClick.evidence[1]).toMatchObject({
      source: 'inbox-test',
      testId,
      text: expect.stringMatching(new RegExp(`^Test message of inbox test ${testId}: one-click POST: `)),
    });
  });

  it('judges a test message not met: one-click fields left out of the signature, a repeated Subject, no reverse DNS, SPF failing', async () => {
    const { client } = await signUp(t.app);
    const id = await checkedDomain(client, 'careless-brand.com');
    await checkedDomain(client, 'compliant-brand.com'); // an inbox test needs one healthy domain
    const ptr = dns.zone['1.0.0.127.in-addr.arpa'];
    delete dns.zone['1.0.0.127.in-addr.arpa'];
    try {
      // Signed by s2 with nodemailer's default fields, which include List-Unsubscribe but not List-Unsubscribe-Post.
      const raw = [
        'From: News <news@careless-brand.com>',
        'Subject: March news',
        'Subject: March news again',
        `Date: ${new Date().toUTCString()}`,
        'Message-ID: <march-1@careless-brand.com>',
        `List-Unsubscribe: ${ONE_CLICK_HEADERS['List-Unsubscribe']}`,
        `List-Unsubscribe-Post: ${ONE_CLICK_HEADERS['List-Unsubscribe-Post']}`,
        'Content-Type: text/plain',
        '',
        'Our March news.',
        '',
      ].join('\r\n');
      const test = (
        await client.post('/api/inbox-tests', { testType: 'automatic', oneClickUnsubscribeTest: false })
      ).json();
      await sendRaw(
        raw.replace(
          'Subject: March news\r\n',
          `To: ${test.testEmailAddress}\r\nSubject: [TEST-${test.id}] March news\r\n`,
        ),
        test.testEmailAddress,
      );
      const card = await waitUntil(() => scorecard(client, id), 'the test message to reach the scorecard', {
        until: (c) => rule(c, 'gmail-bulk:dmarc-aligned').evidence.some((e) => e.testId === test.id),
        timeoutMs: 20_000,
      });
      expect(verdicts(card)).toMatchObject({
        'gmail-bulk:one-click-unsubscribe': 'not_met',
        'gmail:message-format': 'not_met',
        'gmail:reverse-dns': 'not_met',
        'microsoft:spf-and-dkim': 'not_met',
      });
      expect(rule(card, 'gmail-bulk:one-click-unsubscribe').evidence[0].text).toBe(
        `Test message of inbox test ${test.id}: no passing DKIM signature covers both List-Unsubscribe and List-Unsubscribe-Post.`,
      );
      expect(rule(card, 'gmail:message-format').evidence[0].text).toBe(
        `Test message of inbox test ${test.id}: 2 subject fields.`,
      );
      expect(rule(card, 'gmail:reverse-dns').evidence[0].text).toBe(
        `Test message of inbox test ${test.id}: 127.0.0.1 has no PTR record.`,
      );
      expect(rule(card, 'microsoft:spf-and-dkim').evidence[0].text).toMatch(
        /^Test message of inbox test \d+: SPF fail/,
      );
    } finally {
      dns.zone['1.0.0.127.in-addr.arpa'] = ptr;
    }
  });

  it('judges reverse DNS of the sending IPs DMARC reports show passing, never of a spoofer’s, at each DNS check', async () => {
    const { client } = await signUp(t.app);
    const id = await checkedDomain(client, 'relay-brand.com');
    const xml = reportXml({
      orgName: 'google.com',
      reportId: 'relay-1',
      domain: 'relay-brand.com',
      begin: new Date(Date.now() - 2 * 86_400_000),
      records: [
        { ip: '203.0.113.10', count: 900, dkim: 'pass', spf: 'pass' },
        { ip: '203.0.113.20', count: 300, dkim: 'pass', spf: 'fail' },
        // A spoofer: fails DMARC, has no PTR, and is not the domain's to fix.
        { ip: '198.51.100.66', count: 40, dkim: 'fail', spf: 'fail' },
      ],
    });
    expect((await uploadReport(t.app, client, xml, { fileName: 'relay.xml' })).json().imported).toBe(1);
    expect((await client.post(`/api/domains/${id}/verify`)).statusCode).toBe(200);
    const missing = rule(await scorecard(client, id), 'gmail:reverse-dns');
    expect(missing.verdict).toBe('not_met');
    expect(missing.evidence.map((e) => [e.source, e.text])).toEqual([
      [
        'dns-check',
        'DNS check: a DMARC report source passing DMARC: 203.0.113.10 has PTR mail10.relay-brand.com, which resolves back to 203.0.113.10.',
      ],
      ['dns-check', 'DNS check: a DMARC report source passing DMARC: 203.0.113.20 has no PTR record.'],
    ]);
    expect(missing.fix).toContain('203.0.113.20');

    dns.zone['20.113.0.203.in-addr.arpa'] = { PTR: ['mail20.relay-brand.com'] };
    dns.zone['mail20.relay-brand.com'] = { A: ['203.0.113.20'] };
    expect((await client.post(`/api/domains/${id}/verify`)).statusCode).toBe(200);
    const card = await scorecard(client, id);
    expect(verdicts(card)).toMatchObject({
      'gmail:reverse-dns': 'met',
      'yahoo:reverse-dns': 'met',
      'apple:reverse-dns': 'met',
    });
    expect(rule(card, 'gmail:reverse-dns').evidence[1].text).toBe(
      'DNS check: a DMARC report source passing DMARC: 203.0.113.20 has PTR mail20.relay-brand.com, which resolves back to 203.0.113.20.',
    );
  });

  it('counts the SMTP replies citing a rule and judges the spam rate from Postmaster Tools and complaint events', async () => {
    const { client, user } = await signUp(t.app);
    const id = await checkedDomain(client, 'compliant-brand.com');
    const ts = new Date(Date.now() - 60_000).toISOString();
    const event = (type: string, n: number, recipient: string, status?: string) =>
      client.post('/api/events', {
        type,
        message_id: `m-${type}-${n}`,
        recipient,
        timestamp: ts,
        domain: 'compliant-brand.com',
        ...(status ? { status } : {}),
      });
    // Gmail's reply as its SMTP error reference words it (https://support.google.com/a/answer/3726730).
    const gmail550 =
      '550-5.7.26 This mail has been blocked because the sender is unauthenticated. Gmail requires all senders to authenticate with either SPF or DKIM. - gsmtp';
    // Microsoft's, as its high-volume sender announcement words it (the rule table's Microsoft source).
    const microsoft550 =
      '550 5.7.515 Access denied, sending domain compliant-brand.com does not meet the required authentication level.';
    for (const [n, status] of [
      [1, gmail550],
      [2, gmail550],
    ] as const)
      expect((await event('bounced', n, `ann${n}@gmail.com`, status)).statusCode).toBe(200);
    expect((await event('bounced', 3, 'bob@outlook.com', microsoft550)).statusCode).toBe(200);
    // A deferral citing DMARC alignment, which no test message has shown yet (Sisimai's Gmail reply table quotes it).
    const gmail421 =
      "421-4.7.32 Your email has been rate limited because the From: header (RFC5322) in this message isn't aligned with either the authenticated SPF or DKIM organizational domain. - gsmtp";
    expect((await event('deferred', 4, 'dan@gmail.com', gmail421)).statusCode).toBe(200);
    // Yahoo: 1 complaint over 4 delivered, far above 0.3 %.
    for (const n of [1, 2, 3, 4]) await event('delivered', n, `carol${n}@yahoo.com`);
    await event('complaint', 1, 'carol1@yahoo.com');

    const [postmaster] = await t.database.db
      .insert(integrations)
      .values({ userId: user.id, provider: 'google-postmaster', type: 'analytics', status: 'active' })
      .returning();
    const today = utcDay();
    await t.database.db.insert(postmasterStats).values([
      {
        userId: user.id,
        integrationId: postmaster.id,
        domain: 'compliant-brand.com',
        date: addDays(today, -1),
        userReportedSpamRatio: 0.0012,
        inboundEncryptionRatio: 1,
      },
      {
        userId: user.id,
        integrationId: postmaster.id,
        domain: 'compliant-brand.com',
        date: addDays(today, -3),
        userReportedSpamRatio: 0.0004,
        inboundEncryptionRatio: 0.97,
      },
    ]);

    const card = await scorecard(client, id);
    expect(card.smtpReplies).toEqual([
      expect.objectContaining({
        provider: 'gmail',
        code: '5.7.26',
        requirement: 'spf-or-dkim',
        count: 2,
        example: gmail550,
      }),
      expect.objectContaining({ provider: 'gmail-bulk', code: '4.7.32', requirement: 'dmarc-aligned', count: 1 }),
      expect.objectContaining({ provider: 'microsoft', code: '5.7.515', requirement: 'spf-and-dkim', count: 1 }),
    ]);
    // Without a test message alignment is unknown; Gmail's reply says it is not met.
    expect(rule(card, 'gmail-bulk:dmarc-aligned')).toMatchObject({ verdict: 'not_met' });
    expect(rule(card, 'yahoo:dmarc-aligned')).toMatchObject({ verdict: 'unknown' });
    expect(rule(card, 'gmail:spf-or-dkim').evidence.at(-1)).toMatchObject({
      source: 'smtp-replies',
      text: expect.stringMatching(/^2 replies 5\.7\.26 /),
    });
    expect(rule(card, 'gmail:spam-rate')).toMatchObject({ verdict: 'met' });
    expect(rule(card, 'gmail:spam-rate').evidence[0].text).toBe(
      `Postmaster Tools: user-reported spam rate 0.12 % on ${addDays(today, -1)} (spam reports over mail delivered to Gmail inboxes), above the 0.10 % Google asks senders to stay under; highest of the last 2 days 0.12 % on ${addDays(today, -1)}.`,
    );
    expect(rule(card, 'gmail:tls')).toMatchObject({ verdict: 'met' });
    expect(rule(card, 'yahoo:spam-rate')).toMatchObject({
      verdict: 'not_met',
      evidence: [
        {
          source: 'complaints',
          text: 'Complaints: 1 complaint events over 4 delivered events to Yahoo in the last 30 days (25.00 %).',
        },
      ],
    });

    // A day at 0.3 % in the last week is not met.
    await t.database.db.insert(postmasterStats).values({
      userId: user.id,
      integrationId: postmaster.id,
      domain: 'compliant-brand.com',
      date: addDays(today, -2),
      userReportedSpamRatio: 0.0031,
    });
    expect(rule(await scorecard(client, id), 'gmail:spam-rate').verdict).toBe('not_met');
  });
});

function sendRaw(raw: string, to: string) {
  const transport = nodemailer.createTransport({
    host: '127.0.0.1',
    port: smtp.port,
    secure: false,
    ignoreTLS: true,
    name: 'mta.careless-brand.com',
    dkim: { domainName: 'careless-brand.com', keySelector: 's2', privateKey: strong.privatePem },
  });
  return transport
    .sendMail({ envelope: { from: 'bounce@careless-brand.com', to }, raw })
    .finally(() => transport.close());
}

describe('GET /api/dashboard/compliance', () => {
  it('counts the rules not met over the user’s checked domains, per domain, and only theirs', async () => {
    const { client } = await signUp(t.app);
    expect((await t.app.inject({ method: 'GET', url: '/api/dashboard/compliance' })).statusCode).toBe(401);
    expect((await client.get('/api/dashboard/compliance')).json()).toEqual({ notMet: 0, domains: [] });
    const careless = await checkedDomain(client, 'careless-brand.com');
    const compliant = await checkedDomain(client, 'compliant-brand.com');
    // Not checked yet: no verdicts to count.
    await client.post('/api/domains', { domain: 'pending-brand.com' });
    const cards = [await scorecard(client, careless), await scorecard(client, compliant)];
    const overview = (await client.get('/api/dashboard/compliance')).json();
    expect(overview.notMet).toBe(cards[0].counts.notMet + cards[1].counts.notMet);
    expect(overview.notMet).toBeGreaterThan(0);
    expect(overview.domains).toEqual(
      expect.arrayContaining(
        cards.map((c) => ({
          domainId: c.domainId,
          domain: c.domain,
          notMet: c.counts.notMet,
          unknown: c.counts.unknown,
        })),
      ),
    );
    expect(overview.domains).toHaveLength(2);
    expect((await (await signUp(t.app)).client.get('/api/dashboard/compliance')).json()).toEqual({
      notMet: 0,
      domains: [],
    });
  });
});

describe('the compliance alert', () => {
  const alertOf = async (userId: number, key: string) =>
    (
      await t.database.db
        .select()
        .from(alerts)
        .where(and(eq(alerts.userId, userId), eq(alerts.conditionKey, key)))
    )[0];

  it('is one per domain naming the rules not met, updated as they change, and resolved when none is left', async () => {
    const { client, user } = await signUp(t.app);
    dns.zone['turning-brand.com'] = { TXT: ['v=spf1 ip4:192.0.2.1 -all'] };
    dns.zone['s1._domainkey.turning-brand.com'] = { TXT: [`v=DKIM1; k=rsa; p=${strong.publicDer}`] };
    const id = await checkedDomain(client, 'turning-brand.com');
    await evaluateAlerts({ db: t.database.db, jobs: t.jobs }, user.id);
    const key = 'compliance:turning-brand.com';
    const open = await alertOf(user.id, key);
    expect(open).toMatchObject({
      type: 'compliance',
      severity: 'warning',
      domain: 'turning-brand.com',
      resolvedAt: null,
      metadata: expect.objectContaining({ link: `/domains/${id}/compliance` }),
    });
    // DMARC is missing: every provider's DMARC rule, in one alert; unknown rules (no test message) are not named.
    expect(open?.title).toMatch(/^turning-brand\.com does not meet \d+ bulk-sender rules \(Gmail/);
    expect(open?.message).toContain('Gmail (more than 5,000 a day): DMARC published');
    expect(open?.message).not.toContain('aligned');
    const openCount = (
      await t.database.db
        .select()
        .from(alerts)
        .where(and(eq(alerts.userId, user.id), eq(alerts.type, 'compliance')))
    ).length;
    expect(openCount).toBe(1);

    dns.zone['_dmarc.turning-brand.com'] = { TXT: ['v=DMARC1; p=none'] };
    expect((await client.post(`/api/domains/${id}/verify`)).statusCode).toBe(200);
    await evaluateAlerts({ db: t.database.db, jobs: t.jobs }, user.id);
    const resolved = await alertOf(user.id, key);
    expect(resolved?.resolvedAt).not.toBeNull();
    expect(JSON.stringify(resolved?.history)).toContain('turning-brand.com no longer fails a bulk-sender rule.');
  });
});
