import { readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDnsServer, type TestDnsServer } from '../../test/dns-server';
import { hasOpenssl, makeSelfSignedCert } from '../../test/self-signed-cert';
import { createResolver, type DnsResolver } from '../../platform/dns/resolver';
import { checkMtaSts, mxMatches, parseMtaStsPolicy } from './mta-sts';

const DOMAIN = 'sts-brand.test';

describe('MTA-STS policy parsing', () => {
  it('reads the policy lines and matches mx patterns as RFC 8461 says', () => {
    expect(parseMtaStsPolicy('version: STSv1\r\nmode: enforce\r\nmx: mx1.Brand.test\r\nmx: *.mail.brand.test\r\nmax_age: 604800\r\n')).toEqual({
      version: 'STSv1',
      mode: 'enforce',
      mx: ['mx1.brand.test', '*.mail.brand.test'],
      maxAge: 604800,
    });
    expect(mxMatches('*.mail.brand.test', 'a.mail.brand.test.')).toBe(true);
    expect(mxMatches('*.mail.brand.test', 'a.b.mail.brand.test')).toBe(false);
    expect(mxMatches('*.mail.brand.test', 'mail.brand.test')).toBe(false);
    expect(mxMatches('mx1.brand.test', 'MX1.brand.test')).toBe(true);
  });
});

describe.skipIf(!hasOpenssl)('MTA-STS policy fetched over HTTPS (needs openssl to make a test certificate)', () => {
  let dns: TestDnsServer;
  let resolver: DnsResolver;
  let https: Server;
  let ca: Buffer;
  let policy = '';
  let status = 200;
  let port = 0;
  let made: ReturnType<typeof makeSelfSignedCert>;

  beforeAll(async () => {
    made = makeSelfSignedCert(`mta-sts.${DOMAIN}`);
    const { key, cert } = made;
    ca = readFileSync(cert);
    https = createServer({ key: readFileSync(key), cert: ca }, (req, res) => {
      if (req.url !== '/.well-known/mta-sts.txt' || req.headers.host !== `mta-sts.${DOMAIN}`) return res.writeHead(404).end();
      res.writeHead(status, { 'content-type': 'text/plain' }).end(policy);
    });
    await new Promise<void>((resolve) => https.listen(0, '127.0.0.1', resolve));
    port = (https.address() as AddressInfo).port;
    dns = await startDnsServer({
      [`_mta-sts.${DOMAIN}`]: { TXT: ['v=STSv1; id=20261122'] },
      // Only the product's resolver knows this name: the fetch must go through it.
      [`mta-sts.${DOMAIN}`]: { A: ['127.0.0.1'] },
    });
    resolver = createResolver({ servers: [dns.address], timeoutMs: 1000, tries: 1, maxCacheSeconds: 0 });
  });
  afterAll(async () => {
    await dns?.close();
    https?.close();
    if (made) rmSync(made.dir, { recursive: true, force: true });
  });

  const check = (mx: string[]) => checkMtaSts(resolver, DOMAIN, mx, { port, ca });

  it('accepts an enforced policy that covers every MX host', async () => {
    policy = 'version: STSv1\nmode: enforce\nmx: mx1.sts-brand.test\nmx: *.backup.sts-brand.test\nmax_age: 604800\n';
    const result = await check(['mx1.sts-brand.test', 'b2.backup.sts-brand.test']);
    expect(result).toMatchObject({ status: 'valid', record: 'v=STSv1; id=20261122', policy, findings: [] });
  });

  it('flags an MX host the enforced policy leaves out, and a short max_age', async () => {
    policy = 'version: STSv1\nmode: enforce\nmx: mx1.sts-brand.test\nmax_age: 3600\n';
    const result = await check(['mx1.sts-brand.test', 'mx2.sts-brand.test']);
    expect(result.status).toBe('invalid');
    expect(result.findings.map((f) => [f.severity, f.message])).toEqual([
      ['warning', 'max_age is 3600 seconds: senders forget the policy within a day.'],
      ['error', 'The MTA-STS policy does not list mx2.sts-brand.test: senders that enforce it will not deliver there.'],
    ]);
  });

  it('says why the policy could not be fetched', async () => {
    status = 404;
    expect((await check([])).findings[0].message).toBe('The MTA-STS policy could not be fetched: HTTP 404.');
    status = 200;
    // Without trusting the test CA the certificate is refused, as a sender would refuse it.
    const untrusted = await checkMtaSts(resolver, DOMAIN, [], { port });
    expect(untrusted.findings[0].message).toMatch(/^The MTA-STS policy could not be fetched: self[- ]signed certificate/);
    policy = 'x'.repeat(70 * 1024);
    expect((await check([])).findings[0].message).toBe('The MTA-STS policy could not be fetched: the policy is larger than 64 KB.');
  });
});
