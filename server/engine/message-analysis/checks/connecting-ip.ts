import { blocklistsFor, lookUpBlocklists } from '../../blocklists/dnsbl';
import { normaliseIp, parseIp, sameIp } from '../../../platform/dns/ip-address';
import type { DnsResolver } from '../../../platform/dns/resolver';
import { DnsLookupError } from '../../../platform/dns/resolver';

/** One list's answer as the inbox-test report shows it. */
export interface ConnectingIpBlocklist {
  list: string;
  zone: string;
  status: 'listed' | 'clear' | 'unknown';
  /** What the listing means (listed), or why the answer could not be used (unknown). */
  reason: string | null;
  /** Where a sender can look up and request removal. */
  lookupUrl: string;
}

export interface ConnectingIpReport {
  /** As normaliseIp writes it: an IPv4 client of a dual-stack listener (::ffff:a.b.c.d) as a.b.c.d. */
  ip: string;
  /** PTR names of the IP. */
  reverseDns: string[];
  /** Forward-confirmed reverse DNS: a PTR name whose A/AAAA records include the IP; null when none does. */
  confirmedName: string | null;
  /** The reverse lookup failed (unknown), as opposed to the IP having no PTR. */
  reverseDnsFailed: boolean;
  blocklists: ConnectingIpBlocklist[];
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
    if (forward.flat().some((address) => sameIp(address, ip)))
      return { reverseDns, confirmedName: name, reverseDnsFailed: false };
  }
  return { reverseDns, confirmedName: null, reverseDnsFailed: false };
}

/**
 * Who connected: reverse DNS with forward confirmation, and blocklists, looked up side by side.
 * `reverse` is the IP's lookUpReverseDns when the caller needs it for something else too.
 */
export async function analyzeConnectingIp(
  dns: DnsResolver,
  remoteAddress: string,
  reverse?: Promise<ReverseDns>,
): Promise<ConnectingIpReport> {
  const ip = normaliseIp(remoteAddress);
  if (ip === null) throw new TypeError(`"${remoteAddress}" is not an IP address`);
  const [names, blocklists] = await Promise.all([reverse ?? lookUpReverseDns(dns, ip), checkBlocklists(dns, ip)]);
  return { ip, ...names, blocklists };
}

/**
 * The lists an inbox test asks: tiers 1 and 2. Each listing costs the message 1.5 points, and the
 * tier 3 lists (whole networks, backscatter, regional lists) are ones few receivers reject on: they
 * would cost points for mail that is delivered. Blacklist monitoring shows every list.
 */
function checkBlocklists(dns: DnsResolver, ip: string): Promise<ConnectingIpBlocklist[]> {
  const lists = blocklistsFor(parseIp(ip)?.kind() === 'ipv6' ? 'ipv6' : 'ipv4').filter((list) => list.tier <= 2);
  const byId = new Map(lists.map((list) => [list.id, list]));
  return lookUpBlocklists(dns, { ip }, { lists }).then((answers) =>
    answers.flatMap(({ listId, status, reason }) => {
      const list = byId.get(listId);
      return list ? [{ list: list.name, zone: list.zone, status, reason, lookupUrl: list.removalUrl }] : [];
    }),
  );
}
