import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDnsServer, type TestDnsServer } from '../../test/dns-server';
import { createResolver, DnsLookupError, type DnsResolver } from './resolver';

let dns: TestDnsServer;
let resolver: DnsResolver;
beforeAll(async () => {
  dns = await startDnsServer({
    'example.test': {
      TXT: ['v=spf1 -all', ['v=DKIM1; k=rsa; p=AAAA', 'BBBB']],
      MX: [{ exchange: 'mx.example.test', priority: 10 }],
      A: ['192.0.2.10'],
    },
    'empty.example.test': {},
    '10.2.0.192.in-addr.arpa': { PTR: ['mail.example.test'] },
    // 2001:db8::1, its 32 nibbles last first.
    '1.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.8.b.d.0.1.0.0.2.ip6.arpa': { PTR: ['mail6.example.test'] },
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
    // The error names what was asked, so a finding can say which lookup failed.
    await expect(resolver.txt('broken.example.test')).rejects.toMatchObject({
      query: 'broken.example.test',
      rrtype: 'TXT',
      code: 'ESERVFAIL',
    });
  });

  it('asks only the configured servers for PTR records, never /etc/hosts', async () => {
    // /etc/hosts names 127.0.0.1 (localhost) on every machine; this server answers NXDOMAIN for it.
    expect(await resolver.reverse('127.0.0.1')).toEqual([]);
    dns.zone['1.0.0.127.in-addr.arpa'] = { PTR: ['loopback.example.test'] };
    resolver.clearCache();
    expect(await resolver.reverse('127.0.0.1')).toEqual(['loopback.example.test']);
    expect(await resolver.reverse('2001:db8::1')).toEqual(['mail6.example.test']);
    expect(await resolver.reverse('2001:db8::2')).toEqual([]);
    await expect(resolver.reverse('not-an-ip')).rejects.toMatchObject({ rrtype: 'PTR', code: 'EINVAL' });
  });

  it('caches answers until cleared', async () => {
    dns.zone['cached.example.test'] = { TXT: ['first'] };
    expect(await resolver.txt('cached.example.test')).toEqual(['first']);
    dns.zone['cached.example.test'] = { TXT: ['second'] };
    expect(await resolver.txt('cached.example.test')).toEqual(['first']);
    resolver.clearCache();
    expect(await resolver.txt('cached.example.test')).toEqual(['second']);
  });

  it('has an uncached view for lookups a user asks for now, which leaves the cache as it was', async () => {
    expect(await resolver.txt('late.example.test')).toEqual([]); // not published yet: cached as absent
    dns.zone['late.example.test'] = { TXT: ['v=spf1 -all'] };
    expect(await resolver.txt('late.example.test')).toEqual([]);
    expect(await resolver.uncached().txt('late.example.test')).toEqual(['v=spf1 -all']);
    expect(resolver.uncached()).toBe(resolver.uncached());
    expect(await resolver.txt('late.example.test')).toEqual([]);
  });
});
