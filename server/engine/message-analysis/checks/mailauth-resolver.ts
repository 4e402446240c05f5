import type { DNSResolver } from 'mailauth';
import { ipFromPtrName } from '../../../platform/dns/ip-address';
import type { DnsResolver } from '../../../platform/dns/resolver';

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
      const ip = ipFromPtrName(name);
      return ip ? dns.reverse(ip) : [];
    }
    default:
      throw Object.assign(new Error(`Unsupported DNS type ${rrtype}`), { code: 'ENOTFOUND' });
  }
}
