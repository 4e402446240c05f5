import { reversedIp } from './ip-address';
import { DnsLookupError, type DnsResolver } from './resolver';

/*
 * A small DNS blocklist check over the product resolver, shared by inbox-test analysis (the
 * sender's IP) until a full blocklist engine exists. Each list has its own return-code table; an
 * answer outside it (notably 127.255.255.x, which Spamhaus gives when it refuses a query, e.g. one
 * through a public resolver) is "unknown", never "listed" (DESIGN.md, known traps).
 */

export interface Dnsbl {
  name: string;
  zone: string;
  /** Return code -> what it means; anything else answered is unknown. */
  codes: Record<string, string>;
  /** Where a sender can look up and request removal. */
  lookupUrl: string;
}

export const DNSBLS: Dnsbl[] = [
  {
    name: 'Spamhaus ZEN',
    zone: 'zen.spamhaus.org',
    codes: {
      '127.0.0.2': 'SBL: a known spam source',
      '127.0.0.3': 'SBL CSS: a snowshoe spam source',
      '127.0.0.4': 'XBL: an exploited or infected host',
      '127.0.0.9': 'DROP: a hijacked network',
      '127.0.0.10': 'PBL: an end-user address that should not send mail directly (ISP policy)',
      '127.0.0.11': 'PBL: an end-user address that should not send mail directly (Spamhaus)',
    },
    lookupUrl: 'https://check.spamhaus.org/',
  },
  {
    name: 'SpamCop',
    zone: 'bl.spamcop.net',
    codes: { '127.0.0.2': 'reported as a spam source by SpamCop users' },
    lookupUrl: 'https://www.spamcop.net/bl.shtml',
  },
  {
    name: 'Barracuda',
    zone: 'b.barracudacentral.org',
    codes: { '127.0.0.2': 'listed by Barracuda as a spam source' },
    lookupUrl: 'https://www.barracudacentral.org/lookups',
  },
  { name: 'PSBL', zone: 'psbl.surriel.com', codes: { '127.0.0.2': 'sent mail to PSBL spam traps' }, lookupUrl: 'https://psbl.org/' },
];

export type DnsblStatus = 'listed' | 'clear' | 'unknown';

export interface DnsblResult {
  list: string;
  zone: string;
  status: DnsblStatus;
  /** What the listing means (listed), or why the answer could not be used (unknown). */
  reason: string | null;
  lookupUrl: string;
}

/** Looks `ip` up on each list (an IPv4-mapped IPv6 address as the IPv4 address it is); throws when `ip` is not an IP address. */
export async function checkDnsbls(dns: DnsResolver, ip: string, lists: Dnsbl[] = DNSBLS): Promise<DnsblResult[]> {
  const reversed = reversedIp(ip);
  return Promise.all(
    lists.map(async (list): Promise<DnsblResult> => {
      const base = { list: list.name, zone: list.zone, lookupUrl: list.lookupUrl };
      try {
        const answers = await dns.a(`${reversed}.${list.zone}`);
        if (answers.length === 0) return { ...base, status: 'clear', reason: null };
        const known = answers.filter((a) => a in list.codes);
        if (known.length === 0)
          return { ...base, status: 'unknown', reason: `The list answered ${answers.join(', ')}, which is not a listing code (the query was likely refused).` };
        return { ...base, status: 'listed', reason: known.map((a) => list.codes[a]).join('; ') };
      } catch (err) {
        if (err instanceof DnsLookupError) return { ...base, status: 'unknown', reason: `The lookup failed (${err.code}).` };
        throw err;
      }
    }),
  );
}
