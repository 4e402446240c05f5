import { checkDnsbls, type DnsblResult } from '../../dns/dnsbl';
import { normaliseIp, sameIp } from '../../dns/ip-address';
import type { DnsResolver } from '../../dns/resolver';
import { DnsLookupError } from '../../dns/resolver';

export interface ConnectingIpReport {
  /** As normaliseIp writes it: an IPv4 client of a dual-stack listener (::ffff:a.b.c.d) as a.b.c.d. */
  ip: string;
  /** PTR names of the IP. */
  reverseDns: string[];
  /** Forward-confirmed reverse DNS: a PTR name whose A/AAAA records include the IP; null when none does. */
  confirmedName: string | null;
  /** The reverse lookup failed (unknown), as opposed to the IP having no PTR. */
  reverseDnsFailed: boolean;
  blocklists: DnsblResult[];
}

export type ReverseDns = Pick<ConnectingIpReport, 'reverseDns' | 'confirmedName' | 'reverseDnsFailed'>;

/** The IP's PTR names and the first of them whose A/AAAA records lead back to it (receivers distrust IPs without one). */
export async function lookUpReverseDns(dns: DnsResolver, ip: string): Promise<ReverseDns> {
  let reverseDns: string[] = [];
  try {
    reverseDns = await dns.reverse(ip);
  } catch (err) {
    if (!(err instanceof DnsLookupError)) throw err;
    return { reverseDns, confirmedName: null, reverseDnsFailed: true };
  }
  for (const name of reverseDns.slice(0, 5)) {
    const forward = await Promise.all([dns.a(name), dns.aaaa(name)]).catch(() => [[], []] as string[][]);
    if (forward.flat().some((address) => sameIp(address, ip))) return { reverseDns, confirmedName: name, reverseDnsFailed: false };
  }
  return { reverseDns, confirmedName: null, reverseDnsFailed: false };
}

/**
 * Who connected: reverse DNS with forward confirmation, and blocklists, looked up side by side.
 * `reverse` is the IP's lookUpReverseDns when the caller needs it for something else too.
 */
export async function analyzeConnectingIp(dns: DnsResolver, remoteAddress: string, reverse?: Promise<ReverseDns>): Promise<ConnectingIpReport> {
  const ip = normaliseIp(remoteAddress);
  if (ip === null) throw new TypeError(`"${remoteAddress}" is not an IP address`);
  const [names, blocklists] = await Promise.all([reverse ?? lookUpReverseDns(dns, ip), checkDnsbls(dns, ip)]);
  return { ip, ...names, blocklists };
}
