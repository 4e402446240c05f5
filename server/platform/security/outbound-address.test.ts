import { readFileSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, type Server as HttpServer, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { isIP, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { hasOpenssl, makeSelfSignedCert } from '../../test/self-signed-cert';
import { isPublicUnicast } from '../dns/ip-address';
import { DnsLookupError, type DnsResolver } from '../dns/resolver';
import { createOutboundGuard, OutboundRequestError } from './outbound-address';

describe('isPublicUnicast', () => {
  it('accepts public unicast, and IPv6 forms of a public IPv4 address', () => {
    for (const address of [
      '8.8.8.8',
      '1.1.1.1',
      '93.184.215.14',
      '2606:4700::1111',
      '2a00:1450:4001:80b::200e',
      '::ffff:8.8.8.8',
      '64:ff9b::8.8.8.8', // NAT64
      '2002:808:808::1', // 6to4 of 8.8.8.8
      '2001:0:4136:e378:8000:63bf:f7f7:f7f7', // Teredo: public server, client 8.8.8.8
    ])
      expect([address, isPublicUnicast(address)]).toEqual([address, true]);
  });

  it('refuses every other range, embedded IPv4 included, and what is not an address', () => {
    for (const address of [
      '0.0.0.0',
      '0.1.2.3',
      '255.255.255.255',
      '224.0.0.1',
      '239.255.255.250',
      '169.254.169.254',
      '127.0.0.1',
      '127.255.0.1',
      '10.0.0.5',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '100.64.0.1',
      '192.0.0.8',
      '192.0.2.1',
      '198.51.100.1',
      '203.0.113.1',
      '198.18.0.1',
      '240.0.0.1',
      '::',
      '::1',
      'fe80::1',
      'fe80::1%eth0',
      'fc00::1',
      'fd00::5',
      'ff02::1',
      'fec0::1',
      '100::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::ffff:10.0.0.5',
      '::ffff:0:10.0.0.5',
      '::8.8.8.8', // IPv4-compatible: deprecated, outside 2000::/3
      '::808:808',
      '64:ff9b::10.0.0.5',
      '64:ff9b:1::808:808', // local-use NAT64
      '2002:7f00:1::1', // 6to4 of 127.0.0.1
      '2002:a9fe:a9fe::1', // 6to4 of 169.254.169.254
      '2001:0:4136:e378:8000:63bf:3fff:fdd2', // Teredo client 192.0.2.45
      '2001:0:a00:5:8000:63bf:f7f7:f7f7', // Teredo server 10.0.0.5
      '2001:db8::1',
      '3fff::1',
      '2001:2::1',
      '4000::1',
      '',
      'localhost',
      'example.com',
      '127.1',
      '0x7f.0.0.1',
      '2130706433',
    ])
      expect([address, isPublicUnicast(address)]).toEqual([address, false]);
  });
});

/** A resolver answering from a table, recording its lookups. */
function tableResolver(table: Record<string, string[]>) {
  const lookups: string[] = [];
  const lookup = (family: 4 | 6) => (name: string) => {
    lookups.push(`${family === 4 ? 'A' : 'AAAA'} ${name}`);
    if (name === 'servfail.test') return Promise.reject(new DnsLookupError(name, 'A', 'ESERVFAIL'));
    return Promise.resolve((table[name] ?? []).filter((address) => isIP(address) === family));
  };
  const dns: Pick<DnsResolver, 'a' | 'aaaa'> = { a: lookup(4), aaaa: lookup(6) };
  return { dns, lookups };
}

describe('the outbound guard', () => {
  let http: HttpServer;
  let port = 0;
  let connections = 0;
  let requests: { url?: string; host?: string; method?: string; body: string }[] = [];
  let reply: (res: ServerResponse) => void = (res) => res.end('hello');

  beforeAll(async () => {
    http = createHttpServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        requests.push({ url: req.url, host: req.headers.host, method: req.method, body });
        reply(res);
      });
    });
    http.on('connection', () => connections++);
    await new Promise<void>((resolve) => http.listen(0, '::', resolve));
    port = (http.address() as AddressInfo).port;
  });
  afterAll(() => http?.close());
  beforeEach(() => {
    connections = 0;
    requests = [];
    reply = (res) => res.end('hello');
  });

  const loopbackOk = { allowNonPublic: (address: string) => address === '127.0.0.1' };

  it('refuses a name unless every address is public, before any connection', async () => {
    const { dns } = tableResolver({
      'loopback.test': ['127.0.0.1'],
      'v6.test': ['::1'],
      'mapped.test': ['::ffff:127.0.0.1'],
      'metadata.test': ['169.254.169.254'],
      'mixed.test': ['127.0.0.1', '10.0.0.5'],
      'mixed6.test': ['127.0.0.1', 'fd00::1'],
    });
    const guard = createOutboundGuard(dns, loopbackOk);
    const strict = createOutboundGuard(dns);
    const reasons = [];
    for (const [g, host] of [
      [strict, 'loopback.test'],
      [guard, 'v6.test'],
      [guard, 'mapped.test'],
      [guard, 'metadata.test'],
      [guard, 'mixed.test'],
      [guard, 'mixed6.test'],
      [guard, 'nothing.test'],
      [guard, 'servfail.test'],
      [strict, '127.0.0.1'],
      [strict, '[::1]'],
    ] as const) {
      const err = await g.fetch(`http://${host}:${port}/`, { timeoutMs: 1000, maxBytes: 100 }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(OutboundRequestError);
      reasons.push((err as OutboundRequestError).reason);
    }
    expect(reasons).toEqual([
      'not_public',
      'not_public',
      'not_public',
      'not_public',
      'not_public',
      'not_public',
      'no_address',
      'dns',
      'not_public',
      'not_public',
    ]);
    expect(connections).toBe(0);
  });

  it('connects to the address it checked, sending the name as Host, and looks the name up once', async () => {
    const { dns, lookups } = tableResolver({ 'api.partner.test': ['127.0.0.1'] });
    const guard = createOutboundGuard(dns, loopbackOk);
    const res = await guard.fetch('http://api.partner.test/hook?x=1', {
      port,
      method: 'POST',
      body: '{"a":1}',
      timeoutMs: 1000,
      maxBytes: 100,
    });
    expect(res).toMatchObject({ status: 200, truncated: false });
    expect(res.body.toString()).toBe('hello');
    expect(requests).toEqual([{ url: '/hook?x=1', host: 'api.partner.test', method: 'POST', body: '{"a":1}' }]);
    expect(lookups).toEqual(['A api.partner.test', 'AAAA api.partner.test']);
  });

  it('answers any HTTP status as an answer, cuts a long body, and bounds the time', async () => {
    const guard = createOutboundGuard(tableResolver({ 'slow.test': ['127.0.0.1'] }).dns, loopbackOk);
    const get = (timeoutMs = 1000) => guard.fetch('http://slow.test/', { port, timeoutMs, maxBytes: 10 });
    reply = (res) => res.writeHead(404).end('not here');
    expect(await get()).toMatchObject({ status: 404, truncated: false });
    reply = (res) => res.end('x'.repeat(100_000));
    const long = await get();
    expect([long.truncated, long.body.length]).toEqual([true, 10]);
    reply = (res) => void res.writeHead(200).write('a'); // never ends
    const err = await get(200).catch((e: unknown) => e);
    expect(err).toMatchObject({ name: 'OutboundRequestError', reason: 'timeout' });
    await expect(guard.fetch('ftp://slow.test/', { timeoutMs: 100, maxBytes: 1 })).rejects.toThrow(
      /Only http and https/,
    );
  });

  describe.skipIf(!hasOpenssl)('over TLS', () => {
    it('checks the certificate against the name, not the address', async () => {
      const made = makeSelfSignedCert('right.test');
      const ca = readFileSync(made.cert);
      const https = createHttpsServer({ key: readFileSync(made.key), cert: ca }, (_req, res) => res.end('secure'));
      await new Promise<void>((resolve) => https.listen(0, '127.0.0.1', resolve));
      const tlsPort = (https.address() as AddressInfo).port;
      try {
        const guard = createOutboundGuard(
          tableResolver({ 'right.test': ['127.0.0.1'], 'wrong.test': ['127.0.0.1'] }).dns,
          loopbackOk,
        );
        const res = await guard.fetch('https://right.test/', { port: tlsPort, ca, timeoutMs: 2000, maxBytes: 100 });
        expect(res.body.toString()).toBe('secure');
        const wrong = await guard
          .fetch('https://wrong.test/', { port: tlsPort, ca, timeoutMs: 2000, maxBytes: 100 })
          .catch((e: unknown) => e);
        expect(wrong).toMatchObject({ reason: 'connection', message: expect.stringMatching(/altnames/) });
        const untrusted = await guard
          .fetch('https://right.test/', { port: tlsPort, timeoutMs: 2000, maxBytes: 100 })
          .catch((e: unknown) => e);
        expect(untrusted).toMatchObject({ reason: 'connection' });
      } finally {
        https.close();
        rmSync(made.dir, { recursive: true, force: true });
      }
    });
  });
});
