import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDnsServer, type TestDnsServer } from '../../test/dns-server';
import { createResolver, DnsLookupError, type DnsResolver } from './resolver';

let dns: TestDnsServer;
let resolver: DnsResolver;
beforeAll(async () => {
  dns = await startDnsServer({
    'example.test': { TXT: ['v=spf1 -all', ['v=DKIM1; k=rsa; p=AAAA', 'BBBB']], MX: [{ exchange: 'mx.example.test', priority: 10 }], A: ['192.0.2.10'] },
    'empty.example.test': {},
    '10.2.0.192.in-addr.arpa': { PTR: ['mail.example.test'] },
  });
  resolver = createResolver({ servers: [dns.address], timeoutMs: 500, tries: 1 });
});
afterAll(() => dns.close());

describe('DNS resolver (against a real DNS server on loopback)', () => {
  it('joins multi-string TXT records and reads MX, A and PTR', async () => {
    expect(await resolver.txt('example.test')).toEqual(['v=spf1 -all', 'v=DKIM1; k=rsa; p=AAAABBBB']);
    expect(await resolver.mx('example.test')).toEqual([{ exchange: 'mx.example.test', priority: 10 }]);
    expect(await resolver.a('example.test')).toEqual(['192.0.2.10']);
    expect(await resolver.reverse('192.0.2.10')).toEqual(['mail.example.test']);
  });

  it('answers NXDOMAIN and NODATA as empty, SERVFAIL as an error', async () => {
    expect(await resolver.txt('nowhere.example.test')).toEqual([]);
    expect(await resolver.txt('empty.example.test')).toEqual([]);
    dns.servfail.add('broken.example.test');
    await expect(resolver.txt('broken.example.test')).rejects.toBeInstanceOf(DnsLookupError);
  });

  it('caches answers until cleared', async () => {
    dns.zone['cached.example.test'] = { TXT: ['first'] };
    expect(await resolver.txt('cached.example.test')).toEqual(['first']);
    dns.zone['cached.example.test'] = { TXT: ['second'] };
    expect(await resolver.txt('cached.example.test')).toEqual(['first']);
    resolver.clearCache();
    expect(await resolver.txt('cached.example.test')).toEqual(['second']);
  });
});
