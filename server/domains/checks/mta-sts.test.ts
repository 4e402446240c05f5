import { readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import net, { type AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startDnsServer, type TestDnsServer } from '../../test/dns-server';
import { hasOpenssl, makeSelfSignedCert } from '../../test/self-signed-cert';
import { createResolver, type DnsResolver } from '../../platform/dns/resolver';
import { createOutboundGuard, type OutboundGuard } from '../../platform/security/outbound-address';
import { checkMtaSts, mxMatches, parseMtaStsPolicy, type PolicyFetchOptions } from './mta-sts';

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
  let connections = 0;
  let made: ReturnType<typeof makeSelfSignedCert>;
  /** The test seam: the guard lets this one loopback address through as if it were public. */
  let outbound: OutboundGuard;

  beforeAll(async () => {
    made = makeSelfSignedCert(`mta-sts.${DOMAIN}`);
    const { key, cert } = made;
    ca = readFileSync(cert);
    https = createServer({ key: readFileSync(key), cert: ca }, (req, res) => {
      if (req.url !== '/.well-known/mta-sts.txt' || req.headers.host !== `mta-sts.${DOMAIN}`) return res.writeHead(404).end();
      res.writeHead(status, { 'content-type': 'text/plain' }).end(policy);
    });
    https.on('connection', () => connections++);
    // Every loopback address (127.0.0.1, ::1, ::ffff:127.0.0.1) reaches this one server.
    await new Promise<void>((resolve) => https.listen(0, '::', resolve));
    port = (https.address() as AddressInfo).port;
    dns = await startDnsServer({
      [`_mta-sts.${DOMAIN}`]: { TXT: ['v=STSv1; id=20261122'] },
      // Only the product's resolver knows this name: the fetch must go through it.
      [`mta-sts.${DOMAIN}`]: { A: ['127.0.0.1'] },
    });
    resolver = createResolver({ servers: [dns.address], timeoutMs: 1000, tries: 1, maxCacheSeconds: 0 });
    outbound = createOutboundGuard(resolver, { allowNonPublic: (address) => address === '127.0.0.1' });
  });
  afterAll(async () => {
    await dns?.close();
    https?.close();
    if (made) rmSync(made.dir, { recursive: true, force: true });
  });
  beforeEach(() => {
    dns.zone[`mta-sts.${DOMAIN}`] = { A: ['127.0.0.1'] };
    status = 200;
    policy = 'version: STSv1\nmode: enforce\nmx: *.sts-brand.test\nmax_age: 604800\n';
    connections = 0;
  });

  const check = (mx: string[], options: PolicyFetchOptions = {}) => checkMtaSts(resolver, DOMAIN, mx, { port, ca, outbound, ...options });
  const NEUTRAL = `The MTA-STS policy could not be fetched from mta-sts.${DOMAIN}.`;

  it('accepts an enforced policy that covers every MX host', async () => {
    policy = 'version: STSv1\nmode: enforce\nmx: mx1.sts-brand.test\nmx: *.backup.sts-brand.test\nmax_age: 604800\n';
    const result = await check(['mx1.sts-brand.test', 'b2.backup.sts-brand.test']);
    expect(result).toMatchObject({ status: 'valid', record: 'v=STSv1; id=20261122', policy, findings: [] });
    expect(connections).toBe(1);
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

  it('says what the host answered when it answered with something else than a policy', async () => {
    status = 404;
    expect((await check([])).findings[0].message).toBe('The MTA-STS policy could not be fetched: HTTP 404.');
    status = 200;
    policy = 'x'.repeat(70 * 1024);
    expect((await check([])).findings[0].message).toBe('The MTA-STS policy could not be fetched: the policy is larger than 64 KB.');
  });

  it('refuses a policy host that is not public, without connecting, in the one neutral text', async () => {
    const production = createOutboundGuard(resolver);
    for (const entry of [{ A: ['127.0.0.1'] }, { AAAA: ['::1'] }, { AAAA: ['::ffff:7f00:1'] }, { A: ['10.0.0.5'] }, { A: ['169.254.169.254'] }, {}]) {
      dns.zone[`mta-sts.${DOMAIN}`] = entry;
      const result = await check([], { outbound: production });
      expect([entry, result.status, result.policy, result.findings[0].message]).toEqual([entry, 'invalid', null, NEUTRAL]);
    }
    expect(connections).toBe(0);
  });

  it('refuses a name with one public and one private address, in either order, without connecting', async () => {
    // 127.0.0.1 stands for the public address (the seam lets it through; alone it is fetched, as above).
    for (const entry of [
      { A: ['127.0.0.1', '10.0.0.5'] },
      { A: ['169.254.169.254', '127.0.0.1'] },
      { A: ['127.0.0.1'], AAAA: ['::1'] },
      { A: ['127.0.0.1'], AAAA: ['fd00::5'] },
    ]) {
      dns.zone[`mta-sts.${DOMAIN}`] = entry;
      expect([entry, (await check([])).findings[0].message]).toEqual([entry, NEUTRAL]);
    }
    expect(connections).toBe(0);
  });

  it('tells no connection failure from another: refused, not TLS, silent, untrusted certificate', async () => {
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));

    const banner = net.createServer((socket) => socket.end('220 mail.example ESMTP\r\n'));
    const silent = net.createServer(() => {});
    const sockets: net.Socket[] = [];
    silent.on('connection', (socket) => sockets.push(socket));
    for (const server of [banner, silent]) await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const messages = [
        (await check([], { port: closedPort })).findings[0].message,
        (await check([], { port: (banner.address() as AddressInfo).port })).findings[0].message,
        (await check([], { port: (silent.address() as AddressInfo).port, timeoutMs: 300 })).findings[0].message,
        // Without trusting the test CA the certificate is refused, as a sender would refuse it.
        (await check([], { ca: undefined })).findings[0].message,
      ];
      expect(messages).toEqual([NEUTRAL, NEUTRAL, NEUTRAL, NEUTRAL]);
    } finally {
      for (const socket of sockets) socket.destroy();
      banner.close();
      silent.close();
    }
  });
});
