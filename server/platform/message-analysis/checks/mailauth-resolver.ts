import type { DNSResolver } from 'mailauth';
import type { DnsResolver } from '../../dns/resolver';

/**
 * mailauth's DNS, answered by the product resolver (DNS_SERVERS), in the shape of node's
 * dns.resolve. mailauth tells "absent" from "failed" by the error code, so an empty answer throws
 * ENODATA (a permanent none/fail) while a failed lookup keeps its own code (ESERVFAIL, ETIMEOUT:
 * a temperror), see DESIGN.md's known traps.
 */
export function mailauthResolver(dns: DnsResolver): DNSResolver {
  return (async (name: string, rrtype: string) => {
    const records = await lookup(dns, name, rrtype.toUpperCase());
    if (records.length === 0) throw Object.assign(new Error(`No ${rrtype} records for ${name}`), { code: 'ENODATA' });
    return records;
  }) as DNSResolver;
}

async function lookup(dns: DnsResolver, name: string, rrtype: string): Promise<unknown[]> {
  switch (rrtype) {
    case 'TXT':
      // node returns each TXT record as its strings; the resolver has joined them already.
      return (await dns.txt(name)).map((record) => [record]);
    case 'MX':
      return dns.mx(name);
    case 'A':
      return dns.a(name);
    case 'AAAA':
      return dns.aaaa(name);
    case 'PTR': {
      const ip = arpaToIp(name);
      return ip ? dns.reverse(ip) : [];
    }
    default:
      throw Object.assign(new Error(`Unsupported DNS type ${rrtype}`), { code: 'ENOTFOUND' });
  }
}

/** 4.3.2.1.in-addr.arpa -> 1.2.3.4; nibble-form ip6.arpa -> the IPv6 address. */
export function arpaToIp(name: string): string | null {
  const lower = name.toLowerCase().replace(/\.$/, '');
  if (lower.endsWith('.in-addr.arpa')) {
    const parts = lower.slice(0, -'.in-addr.arpa'.length).split('.');
    return parts.length === 4 ? parts.reverse().join('.') : null;
  }
  if (lower.endsWith('.ip6.arpa')) {
    const nibbles = lower.slice(0, -'.ip6.arpa'.length).split('.').reverse();
    if (nibbles.length !== 32) return null;
    const groups = [];
    for (let i = 0; i < 32; i += 4) groups.push(nibbles.slice(i, i + 4).join(''));
    return groups.join(':');
  }
  return null;
}
