import { dkimSign } from 'mailauth';
import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createResolver, type DnsResolver } from '../../dns/resolver';
import { startDnsServer, type TestDnsServer } from '../../../test/dns-server';
import { analyzeAuthentication } from './authentication';
import { mailauthResolver } from './mailauth-resolver';

const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const publicDer = publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
const privatePem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();

const message = (from: string) =>
  Buffer.from(
    `From: Brand News <${from}>\r\nTo: test-1-abc@inbox.localhost\r\nSubject: Spring sale [TEST-1]\r\nDate: Mon, 23 Nov 2026 10:00:00 +0000\r\nMessage-ID: <m1@brand-mail.com>\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nHello from the brand.\r\n`,
  );

async function signed(raw: Buffer, domain: string, selector: string): Promise<Buffer> {
  const { signatures, errors } = await dkimSign(raw, { signatureData: [{ signingDomain: domain, selector, privateKey: privatePem }] } as never);
  expect(errors).toEqual([]);
  return Buffer.concat([Buffer.from(signatures), raw]);
}

let dns: TestDnsServer;
let resolver: DnsResolver;

beforeAll(async () => {
  dns = await startDnsServer({
    'brand-mail.com': { TXT: ['v=spf1 ip4:192.0.2.10 -all'] },
    's1._domainkey.brand-mail.com': { TXT: [`v=DKIM1; k=rsa; p=${publicDer}`] },
    '_dmarc.brand-mail.com': { TXT: ['v=DMARC1; p=reject; rua=mailto:dmarc@brand-mail.com'] },
    's1._domainkey.esp-relay.net': { TXT: [`v=DKIM1; k=rsa; p=${publicDer}`] },
    '10.2.0.192.in-addr.arpa': { PTR: ['mta1.brand-mail.com'] },
    [`1.${'0.'.repeat(23)}8.b.d.0.1.0.0.2.ip6.arpa`]: { PTR: ['mta6.brand-mail.com'] },
  });
  resolver = createResolver({ servers: [dns.address], timeoutMs: 1000, tries: 1, maxCacheSeconds: 0 });
});
afterAll(() => dns?.close());

describe('authentication of a received message (mailauth over the product resolver)', () => {
  it('passes SPF, DKIM and DMARC, aligned, for mail sent as the brand from its own IP', async () => {
    const raw = await signed(message('news@brand-mail.com'), 'brand-mail.com', 's1');
    const result = await analyzeAuthentication(
      raw,
      { ip: '192.0.2.10', helo: 'mta1.brand-mail.com', mailFrom: 'bounce@brand-mail.com' },
      resolver,
      'mx.inbox.localhost',
    );
    expect(result.spf).toMatchObject({ result: 'pass', domain: 'brand-mail.com', record: 'v=spf1 ip4:192.0.2.10 -all' });
    expect(result.dkim).toEqual([
      expect.objectContaining({ domain: 'brand-mail.com', selector: 's1', result: 'pass', aligned: true, algorithm: 'rsa-sha256', keyBits: 2048 }),
    ]);
    expect(result.dmarc).toMatchObject({ result: 'pass', domain: 'brand-mail.com', policy: 'reject', spfAligned: true, dkimAligned: true });
    expect(result.headerFrom).toEqual(['news@brand-mail.com']);
    expect(result.authenticationResults).toMatch(/^Authentication-Results: mx\.inbox\.localhost;/);
    expect(result.authenticationResults).toContain('dkim=pass');
    expect(result.authenticationResults).toContain('spf=pass');
    expect(result.authenticationResults).toContain('dmarc=pass');
  });

  it('fails DMARC for a forger: wrong IP, and a signature by another domain that does not align', async () => {
    const raw = await signed(message('news@brand-mail.com'), 'esp-relay.net', 's1');
    const result = await analyzeAuthentication(raw, { ip: '203.0.113.66', helo: 'evil.example', mailFrom: 'x@brand-mail.com' }, resolver, 'mx.inbox.localhost');
    expect(result.spf.result).toBe('fail');
    expect(result.dkim).toEqual([expect.objectContaining({ domain: 'esp-relay.net', result: 'pass', aligned: false })]);
    expect(result.dmarc).toMatchObject({ result: 'fail', policy: 'reject', spfAligned: false, dkimAligned: false });
  });

  it('reports a broken signature (body changed after signing) as a DKIM fail', async () => {
    const raw = await signed(message('news@brand-mail.com'), 'brand-mail.com', 's1');
    const tampered = Buffer.from(raw.toString().replace('Hello from the brand.', 'Hello from someone else.'));
    const result = await analyzeAuthentication(
      tampered,
      { ip: '192.0.2.10', helo: 'mta1.brand-mail.com', mailFrom: 'bounce@brand-mail.com' },
      resolver,
      'mx.inbox.localhost',
    );
    expect(result.dkim[0]).toMatchObject({ domain: 'brand-mail.com', result: 'neutral', comment: expect.stringContaining('body hash did not verify') });
    // SPF still aligns, so DMARC still passes: the reason a DMARC pass alone is not the whole story.
    expect(result.dmarc?.result).toBe('pass');
  });

  it("answers mailauth's PTR queries through the product resolver, by the address the name is for", async () => {
    const resolve = mailauthResolver(resolver);
    await expect(resolve('10.2.0.192.in-addr.arpa', 'PTR')).resolves.toEqual(['mta1.brand-mail.com']);
    await expect(resolve('1.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.8.b.d.0.1.0.0.2.ip6.arpa.', 'PTR')).resolves.toEqual(['mta6.brand-mail.com']);
    // Not a reverse name, or no PTR record: absent (ENODATA), a permanent answer for mailauth.
    await expect(resolve('example.com', 'PTR')).rejects.toMatchObject({ code: 'ENODATA' });
    await expect(resolve('11.2.0.192.in-addr.arpa', 'PTR')).rejects.toMatchObject({ code: 'ENODATA' });
  });
});
