import { domainToASCII } from 'node:url';
import type { AlignmentMode } from './dmarc-record';
import {
  discoverDmarcPolicy,
  organizationalDomainOf,
  type FailedLookup,
  type PolicyDiscovery,
} from './dmarc-discovery';
import type { DnsResolver } from '../../platform/dns/resolver';

/** RFC 9989 9.2's result names. */
export type DmarcResult = 'pass' | 'fail' | 'none' | 'temperror' | 'permerror';

export interface IdentifierAlignment {
  domain: string;
  /** null when a failed lookup left the identifier's Organizational Domain unknown. */
  aligned: boolean | null;
}

export interface DmarcEvaluation {
  result: DmarcResult;
  /** The From domain as an A-label (RFC 9989 5.3.1). */
  authorDomain: string;
  discovery: PolicyDiscovery;
  adkim: AlignmentMode;
  aspf: AlignmentMode;
  /** The SPF-authenticated MAIL FROM (or HELO, for a null path) domain, when SPF passed. */
  spf: IdentifierAlignment | null;
  /** The d= of every DKIM signature that verified. */
  dkim: IdentifierAlignment[];
  /** A lookup that kept the result from being pass or fail (5.3.6). */
  failed: FailedLookup | null;
}

/** RFC 9989 5.3.1: domains are compared as A-labels, in lower case, without a trailing dot. */
export const asciiDomain = (domain: string) => {
  const name = domain.trim().replace(/\.$/, '').toLowerCase();
  return domainToASCII(name) || name;
};

/**
 * DMARC for one message (RFC 9989 5.3): policy discovery by tree walk (4.10.1), then Identifier
 * Alignment (3.2.10, 4.10.2) of the authenticated identifiers with the Author Domain: strict is
 * the same name; relaxed is the same Organizational Domain, each found by its own tree walk.
 */
export async function evaluateDmarc(
  dns: DnsResolver,
  input: { authorDomain: string; spfDomain: string | null; dkimDomains: string[] },
): Promise<DmarcEvaluation> {
  const author = asciiDomain(input.authorDomain);
  const discovery = await discoverDmarcPolicy(dns, author);
  const record = discovery.found?.record;
  const adkim = record?.adkim ?? 'r';
  const aspf = record?.aspf ?? 'r';

  const walks = new Map<string, ReturnType<typeof organizationalDomainOf>>();
  const orgOf = (domain: string) => {
    if (!walks.has(domain)) walks.set(domain, organizationalDomainOf(dns, domain));
    return walks.get(domain)!;
  };
  let failed = discovery.failed;
  const align = async (identifier: string, mode: AlignmentMode): Promise<IdentifierAlignment> => {
    const domain = asciiDomain(identifier);
    // 4.10.2: the same name aligns in both modes; strict needs nothing more than the comparison.
    if (domain === author) return { domain, aligned: true };
    if (mode === 's' || discovery.failed) return { domain, aligned: mode === 's' ? false : null };
    const [own, theirs] = [discovery.organizationalDomain, await orgOf(domain)];
    if (own === null || theirs.domain === null) {
      failed ??= theirs.failed ?? discovery.walk.failed;
      return { domain, aligned: null };
    }
    return { domain, aligned: own === theirs.domain };
  };
  const spf = input.spfDomain ? await align(input.spfDomain, aspf) : null;
  const dkim = await Promise.all(input.dkimDomains.map((d) => align(d, adkim)));

  const identifiers = [spf, ...dkim].filter((i) => i !== null);
  let result: DmarcResult;
  if (discovery.failed) result = 'temperror';
  else if (!discovery.found) result = 'none';
  // 4.10.1: broken policy tags and no valid rua=: the record is there, but receivers apply no DMARC processing.
  else if (discovery.policy?.policy === null) result = 'permerror';
  else if (identifiers.some((i) => i.aligned === true)) result = 'pass';
  // 5.3.6: an identifier whose alignment a DNS failure left open may have passed.
  else if (identifiers.some((i) => i.aligned === null)) result = 'temperror';
  else result = 'fail';
  return {
    result,
    authorDomain: author,
    discovery,
    adkim,
    aspf,
    spf,
    dkim,
    failed: result === 'temperror' ? failed : null,
  };
}
