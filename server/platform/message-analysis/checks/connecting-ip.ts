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

/** Who connected: reverse DNS, forward confirmation (receivers distrust IPs without it) and blocklists. */
export async function analyzeConnectingIp(dns: DnsResolver, remoteAddress: string): Promise<ConnectingIpReport> {
  const ip = normaliseIp(remoteAddress);
  if (ip === null) throw new TypeError(`"${remoteAddress}" is not an IP address`);
  let reverseDns: string[] = [];
  let reverseDnsFailed = false;
  try {
    reverseDns = await dns.reverse(ip);
  } catch (err) {
    if (!(err instanceof DnsLookupError)) throw err;
    reverseDnsFailed = true;
  }
  let confirmedName: string | null = null;
  for (const name of reverseDns.slice(0, 5)) {
    const forward = await Promise.all([dns.a(name), dns.aaaa(name)]).catch(() => [[], []] as string[][]);
    if (forward.flat().some((address) => sameIp(address, ip))) {
      confirmedName = name;
      break;
    }
  }
  return { ip, reverseDns, confirmedName, reverseDnsFailed, blocklists: await checkDnsbls(dns, ip) };
}
