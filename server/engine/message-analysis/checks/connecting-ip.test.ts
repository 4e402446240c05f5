import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blocklistsFor } from '../../blocklists/dnsbl';
import type { DnsResolver } from '../../../platform/dns/resolver';
import { startDnsServer, type TestDnsServer, loopbackResolver } from '../../../test/dns-server';
import { analyzeConnectingIp } from './connecting-ip';

let dns: TestDnsServer;
let resolver: DnsResolver;

beforeAll(async () => {
  dns = await startDnsServer({
    // A well-run sender: PTR and A agree.
    '10.2.0.192.in-addr.arpa': { PTR: ['mta1.brand-mail.com'] },
    'mta1.brand-mail.com': { A: ['192.0.2.10'] },
    // A PTR that points at a name which does not resolve back.
    '66.113.0.203.in-addr.arpa': { PTR: ['dyn-66.isp.example'] },
    'dyn-66.isp.example': { A: ['198.51.100.1'] },
    // Listed on Spamhaus (XBL) and SpamCop; Barracuda answers a refusal code.
    '66.113.0.203.zen.spamhaus.org': { A: ['127.0.0.4'] },
    '66.113.0.203.bl.spamcop.net': { A: ['127.0.0.2'] },
    '66.113.0.203.b.barracudacentral.org': { A: ['127.255.255.254'] },
    // An IPv6 sender with forward-confirmed reverse DNS, listed on Spamhaus.
    [`5.2.${'0.'.repeat(22)}8.b.d.0.1.0.0.2.ip6.arpa`]: { PTR: ['mta6.brand-mail.com'] },
    'mta6.brand-mail.com': { AAAA: ['2001:db8::25'] },
    [`5.2.${'0.'.repeat(22)}8.b.d.0.1.0.0.2.zen.spamhaus.org`]: { A: ['127.0.0.2'] },
  });
  dns.servfail.add('66.113.0.203.psbl.surriel.com');
  resolver = loopbackResolver(dns);
});
afterAll(() => dns?.close());

describe('the connecting IP', () => {
  it('confirms reverse DNS forward and finds it on no list', async () => {
    const report = await analyzeConnectingIp(resolver, '::ffff:192.0.2.10');
    expect(report).toMatchObject({
      ip: '192.0.2.10',
      reverseDns: ['mta1.brand-mail.com'],
      confirmedName: 'mta1.brand-mail.com',
      reverseDnsFailed: false,
    });
    // Tiers 1 and 2 only: the lists whose listings cost a message points.
    const asked = blocklistsFor('ipv4').filter((list) => list.tier <= 2);
    expect(report.blocklists.map((b) => b.list)).toEqual(asked.map((list) => list.name));
    expect(new Set(report.blocklists.map((b) => b.status))).toEqual(new Set(['clear']));
    expect(report.blocklists.map((b) => b.list)).not.toContain('UCEPROTECT Level 3');
  });

  it('tells listed from clear and from unknown (refusal codes and failed lookups are never "listed")', async () => {
    const report = await analyzeConnectingIp(resolver, '203.0.113.66');
    expect(report.confirmedName).toBeNull();
    expect(report.reverseDns).toEqual(['dyn-66.isp.example']);
    const byList = Object.fromEntries(report.blocklists.map((b) => [b.list, [b.status, b.reason]]));
    const { 'Spamhaus ZEN': zen, SpamCop: spamcop, Barracuda: barracuda, PSBL: psbl, ...others } = byList;
    expect({ zen, spamcop, barracuda, psbl }).toEqual({
      zen: ['listed', 'XBL: an exploited or infected host'],
      spamcop: ['listed', 'reported as a spam source by SpamCop users'],
      barracuda: [
        'unknown',
        'The list answered 127.255.255.254, which is not a listing code (the query was likely refused).',
      ],
      psbl: ['unknown', 'The lookup failed (ESERVFAIL).'],
    });
    expect(Object.values(others).map(([status]) => status)).toEqual(Object.keys(others).map(() => 'clear'));
    expect(report.blocklists.find((b) => b.list === 'Spamhaus ZEN')).toMatchObject({
      zone: 'zen.spamhaus.org',
      lookupUrl: 'https://check.spamhaus.org/',
    });
  });

  it('checks IPv6 senders by their nibbles, and confirms reverse DNS whatever way the address is written', async () => {
    const report = await analyzeConnectingIp(resolver, '2001:0DB8:0:0:0:0:0:25');
    expect(report).toMatchObject({
      ip: '2001:db8::25',
      reverseDns: ['mta6.brand-mail.com'],
      confirmedName: 'mta6.brand-mail.com',
    });
    // Only lists that answer for IPv6 are asked (SpamCop does not).
    expect(Object.fromEntries(report.blocklists.map((b) => [b.list, b.status]))).toEqual({
      'Spamhaus ZEN': 'listed',
      DroneBL: 'clear',
    });
  });

  it('refuses what is not an IP address', async () => {
    await expect(analyzeConnectingIp(resolver, 'mta1.brand-mail.com')).rejects.toThrow(
      '"mta1.brand-mail.com" is not an IP address',
    );
  });
});
