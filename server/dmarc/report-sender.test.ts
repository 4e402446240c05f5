import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DnsResolver } from '../platform/dns/resolver';
import { dkimSigned } from '../test/dkim-signed';
import { startDnsServer, type TestDnsServer, loopbackResolver } from '../test/dns-server';
import { provenSenderDomains, unauthenticatedReason } from './report-sender';

const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const key = { TXT: [`v=DKIM1; k=rsa; p=${publicKey.export({ type: 'spki', format: 'der' }).toString('base64')}`] };
const privatePem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();

/** A report mail as a reporter sends it, DKIM-signed by `signer`. */
const reportMail = (from: string, signer: string) =>
  dkimSigned(
    Buffer.from(
      `From: ${from}\r\nTo: dmarc@in.inboxpulse.test\r\nSubject: Report Domain: example.com\r\nDate: Mon, 23 Nov 2026 10:00:00 +0000\r\nMessage-ID: <r1@example.test>\r\nContent-Type: text/plain\r\n\r\nreport attached\r\n`,
    ),
    { domain: signer, selector: 's1', privatePem },
  );
// No SPF for these hosts: only DKIM (and DMARC by DKIM) can prove anything.
const envelope = { ip: '192.0.2.44', helo: 'mta.example.test', mailFrom: 'bounce@no-spf.test' };

let dns: TestDnsServer;
let resolver: DnsResolver;
beforeAll(async () => {
  dns = await startDnsServer({
    // A public suffix domain with a DMARC record (psd=y): its registrants are separate organizations.
    '_dmarc.suffix-zone.test': { TXT: ['v=DMARC1; p=reject; psd=y'] },
    '_dmarc.reporter.suffix-zone.test': { TXT: ['v=DMARC1; p=reject'] },
    's1._domainkey.reporter.suffix-zone.test': key,
    's1._domainkey.mail.reporter.suffix-zone.test': key,
    's1._domainkey.forger.suffix-zone.test': key,
  });
  resolver = loopbackResolver(dns);
});
afterAll(() => dns?.close());

const claimedBy = { orgName: 'Reporter', email: 'noreply-dmarc@reporter.suffix-zone.test' };

describe('whether a mailed report comes from the organisation it names (Organizational Domains by RFC 9989 4.10.2)', () => {
  it('accepts a report signed by the reporter’s domain or a domain of its organisation', async () => {
    for (const signer of ['reporter.suffix-zone.test', 'mail.reporter.suffix-zone.test']) {
      const proven = await provenSenderDomains(await reportMail(claimedBy.email, signer), envelope, resolver);
      expect(proven).toContain('reporter.suffix-zone.test');
      expect(unauthenticatedReason(claimedBy, proven)).toBeNull();
    }
  });

  it('refuses one signed by another registrant under the same public suffix, which the Public Suffix List took for the same organisation', async () => {
    const proven = await provenSenderDomains(
      await reportMail('noreply@forger.suffix-zone.test', 'forger.suffix-zone.test'),
      envelope,
      resolver,
    );
    expect(proven).toEqual(['forger.suffix-zone.test']);
    expect(unauthenticatedReason(claimedBy, proven)).toBe(
      'The report says it comes from reporter.suffix-zone.test, but the mail proved only forger.suffix-zone.test (a DKIM signature or DMARC pass).',
    );
  });
});
