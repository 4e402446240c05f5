import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DnsResolver } from '../../../platform/dns/resolver';
import { dkimSigned } from '../../../test/dkim-signed';
import { startDnsServer, type TestDnsServer, loopbackResolver } from '../../../test/dns-server';
import { analyzeAuthentication } from './authentication';
import { brandSignature } from './authentication.test-support';
import { AUTH_DEDUCTIONS, authenticationFindings } from './authentication-findings';
import { mailauthResolver } from './mailauth-resolver';
import { scoreFindings, verdict } from './score';

const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const publicDer = publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
const privatePem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();

const message = (from: string) =>
  Buffer.from(
    `From: Brand News <${from}>\r\nTo: test-1-abc@inbox.localhost\r\nSubject: Spring sale [TEST-1]\r\nDate: Mon, 23 Nov 2026 10:00:00 +0000\r\nMessage-ID: <m1@brand-mail.com>\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nHello from the brand.\r\n`,
  );

const signed = (raw: Buffer, domain: string, selector: string) => dkimSigned(raw, { domain, selector, privatePem });

let dns: TestDnsServer;
let resolver: DnsResolver;

beforeAll(async () => {
  dns = await startDnsServer({
    'brand-mail.com': { TXT: ['v=spf1 ip4:192.0.2.10 -all'] },
    's1._domainkey.brand-mail.com': { TXT: [`v=DKIM1; k=rsa; p=${publicDer}`] },
    '_dmarc.brand-mail.com': { TXT: ['v=DMARC1; p=reject; rua=mailto:dmarc@brand-mail.com'] },
    's1._domainkey.esp-relay.net': { TXT: [`v=DKIM1; k=rsa; p=${publicDer}`] },
    // A rotated-out selector: an empty p= revokes the key (RFC 6376 3.6.1).
    'old._domainkey.brand-mail.com': { TXT: ['v=DKIM1; p='] },
    'open-relay.example': { TXT: ['v=spf1 +all'] },
    '10.2.0.192.in-addr.arpa': { PTR: ['mta1.brand-mail.com'] },
    [`1.${'0.'.repeat(23)}8.b.d.0.1.0.0.2.ip6.arpa`]: { PTR: ['mta6.brand-mail.com'] },
  });
  resolver = loopbackResolver(dns);
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
    expect(result.spf).toMatchObject({
      result: 'pass',
      domain: 'brand-mail.com',
      record: 'v=spf1 ip4:192.0.2.10 -all',
    });
    expect(result.dkim).toEqual([expect.objectContaining(brandSignature)]);
    expect(result.dmarc).toMatchObject({
      result: 'pass',
      domain: 'brand-mail.com',
      policy: 'reject',
      spfAligned: true,
      dkimAligned: true,
    });
    expect(result.headerFrom).toEqual(['news@brand-mail.com']);
    expect(result.authenticationResults).toMatch(/^Authentication-Results: mx\.inbox\.localhost;/);
    expect(result.authenticationResults).toContain('dkim=pass');
    expect(result.authenticationResults).toContain('spf=pass');
    expect(result.authenticationResults).toContain('dmarc=pass');
  });

  it('fails DMARC for a forger: wrong IP, and a signature by another domain that does not align', async () => {
    const raw = await signed(message('news@brand-mail.com'), 'esp-relay.net', 's1');
    const result = await analyzeAuthentication(
      raw,
      { ip: '203.0.113.66', helo: 'evil.example', mailFrom: 'x@brand-mail.com' },
      resolver,
      'mx.inbox.localhost',
    );
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
    // mailauth says neutral; RFC 8601 says fail for a signature that was checked and did not verify.
    expect(result.dkim[0]).toMatchObject({
      domain: 'brand-mail.com',
      result: 'fail',
      comment: 'body hash did not verify',
    });
    expect(result.authenticationResults).toContain(
      'dkim=fail (body hash did not verify) header.i=@brand-mail.com header.s=s1',
    );
    // SPF still aligns, so DMARC still passes: the reason a DMARC pass alone is not the whole story.
    expect(result.dmarc?.result).toBe('pass');
    expect(authenticationFindings(result).filter((f) => f.deduction > 0)).toEqual([
      expect.objectContaining({
        id: 'authentication.dkim-fail',
        detail: expect.stringContaining('body hash did not verify'),
      }),
    ]);
  });

  it('reports a signature whose key is revoked (empty p=) as a DKIM fail that says so', async () => {
    const raw = await signed(message('news@brand-mail.com'), 'brand-mail.com', 'old');
    const result = await analyzeAuthentication(
      raw,
      { ip: '192.0.2.10', helo: 'mta1.brand-mail.com', mailFrom: 'bounce@brand-mail.com' },
      resolver,
      'mx.inbox.localhost',
    );
    expect(result.dkim).toEqual([
      expect.objectContaining({
        domain: 'brand-mail.com',
        selector: 'old',
        result: 'fail',
        comment: 'key revoked (empty p=)',
      }),
    ]);
    expect(result.authenticationResults).toContain(
      'dkim=fail (key revoked (empty p=)) header.i=@brand-mail.com header.s=old',
    );
    const failure = authenticationFindings(result).find((f) => f.id === 'authentication.dkim-fail');
    expect(failure).toMatchObject({
      severity: 'error',
      deduction: AUTH_DEDUCTIONS['authentication.dkim-fail'].deduction,
      title: 'The DKIM key for selector old._domainkey.brand-mail.com is revoked (empty p=)',
    });
  });

  it('counts two From header fields, not two addresses, and charges them as the blocking problem they are', async () => {
    // What a template that writes its own From line above the sending library's produces, sent through an ESP that
    // signs as itself.
    const raw = await signed(
      Buffer.concat([Buffer.from('From: billing@brand-mail.com\r\n'), message('news@brand-mail.com')]),
      'esp-relay.net',
      's1',
    );
    const result = await analyzeAuthentication(
      raw,
      { ip: '192.0.2.10', helo: 'mta1.brand-mail.com', mailFrom: 'bounce@brand-mail.com' },
      resolver,
      'mx.inbox.localhost',
    );
    expect(result).toMatchObject({
      fromHeaderFields: 2,
      headerFrom: ['billing@brand-mail.com', 'news@brand-mail.com'],
      dmarc: null,
    });
    const findings = authenticationFindings(result);
    expect(findings.filter((f) => f.deduction > 0).map((f) => [f.id, f.deduction])).toEqual([
      ['authentication.dkim-not-aligned', AUTH_DEDUCTIONS['authentication.dkim-not-aligned'].deduction],
      ['authentication.from-fields', AUTH_DEDUCTIONS['authentication.from-fields'].deduction],
    ]);
    expect(findings.find((f) => f.id === 'authentication.from-fields')).toMatchObject({
      severity: 'error',
      title: 'The message has 2 From header fields',
    });
    // 10 - 1.0 (DKIM by the ESP only) - 5.5: rejected at Gmail, so below the inbox cut-off, not "Good" as the 1.0 for
    // "2 addresses" left it (8.0).
    const { score } = scoreFindings(findings);
    expect(score).toBe(3.5);
    expect(verdict(score)).toBe('Poor');
  });

  it('counts From fields in the top-level header only, folded ones once, whatever the case of the name', async () => {
    const folded = Buffer.from(
      `FROM:\r\n Brand News\r\n <news@brand-mail.com>\r\nTo: test-1-abc@inbox.localhost\r\nSubject: Fwd\r\nContent-Type: message/rfc822\r\n\r\nFrom: someone@else.example\r\nSubject: inner\r\n\r\nFrom: a body line\r\n`,
    );
    const result = await analyzeAuthentication(folded, null, resolver, 'mx.inbox.localhost');
    expect(result).toMatchObject({ fromHeaderFields: 1, headerFrom: ['news@brand-mail.com'] });
  });

  it('passes SPF for any IP through +all, and says the pass proves nothing', async () => {
    const raw = await signed(message('news@brand-mail.com'), 'brand-mail.com', 's1');
    const result = await analyzeAuthentication(
      raw,
      { ip: '198.51.100.77', helo: 'anyone.example', mailFrom: 'bounce@open-relay.example' },
      resolver,
      'mx.inbox.localhost',
    );
    expect(result.spf).toMatchObject({ result: 'pass', domain: 'open-relay.example', record: 'v=spf1 +all' });
    const findings = authenticationFindings(result);
    expect(findings.find((f) => f.id === 'authentication.spf-pass')).toBeDefined();
    expect(findings.find((f) => f.id === 'authentication.spf-allows-all')).toMatchObject({
      severity: 'warning',
      deduction: 1,
      title: 'The SPF pass proves nothing: open-relay.example allows every IP (+all)',
      fix: expect.stringContaining('Replace +all with -all or ~all after listing your senders'),
    });
  });

  it("answers mailauth's PTR queries through the product resolver, by the address the name is for", async () => {
    const resolve = mailauthResolver(resolver);
    await expect(resolve('10.2.0.192.in-addr.arpa', 'PTR')).resolves.toEqual(['mta1.brand-mail.com']);
    await expect(
      resolve('1.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.8.b.d.0.1.0.0.2.ip6.arpa.', 'PTR'),
    ).resolves.toEqual(['mta6.brand-mail.com']);
    // Not a reverse name, or no PTR record: absent (ENODATA), a permanent answer for mailauth.
    await expect(resolve('example.com', 'PTR')).rejects.toMatchObject({ code: 'ENODATA' });
    await expect(resolve('11.2.0.192.in-addr.arpa', 'PTR')).rejects.toMatchObject({ code: 'ENODATA' });
  });
});
