import type { DomainChecks, SendingIpReverseDns } from '@contracts/domains';
import { lookUpReverseDns } from '../../engine/message-analysis/checks/connecting-ip';
import type { DnsResolver } from '../../platform/dns/resolver';
import { checkDkim } from './dkim';
import { checkDmarc } from './dmarc';
import { checkSpf } from './spf';
import { checkMtaSts } from './mta-sts';
import { checkBimi } from './bimi';
import { checkMx, checkTlsRpt } from './transport';

export interface CheckTarget {
  domain: string;
  verificationToken: string;
  dkimSelectors: string[];
  /** Sending IPs the product has seen for the domain: an SPF record built from the sender is evaluated for each (ADR 037). */
  senderIps?: string[];
  /** The domain's own sending IPs (not spoofers'): each one's reverse DNS is checked and forward-confirmed. */
  ownSenderIps?: Pick<SendingIpReverseDns, 'ip' | 'seenIn'>[];
  /** The checks stored before: where a lookup fails now, its last answer is kept rather than called gone. */
  lastKnown?: Pick<DomainChecks, 'checkedAt' | 'dkim' | 'dmarc'> | null;
}

export const ownershipRecordName = (domain: string) => `_inboxpulse.${domain}`;
export const ownershipRecordValue = (token: string) => `inboxpulse-verification=${token}`;

/** Every DNS check of a domain. A lookup that fails (not: finds nothing) throws DnsLookupError. */
export async function runDomainChecks(dns: DnsResolver, target: CheckTarget): Promise<DomainChecks> {
  const { domain } = target;
  const [a, aaaa, mx, spf, dkim, dmarc, ownership, tlsRpt] = await Promise.all([
    dns.a(domain),
    dns.aaaa(domain),
    checkMx(dns, domain),
    checkSpf(dns, domain, target.senderIps),
    checkDkim(dns, domain, target.dkimSelectors, target.lastKnown),
    checkDmarc(dns, domain, target.lastKnown),
    dns.txt(ownershipRecordName(domain)),
    checkTlsRpt(dns, domain),
  ]);
  const [bimi, mtaSts, sendingIps] = await Promise.all([
    checkBimi(dns, domain, dmarc),
    checkMtaSts(
      dns,
      domain,
      mx.hosts.map((h) => h.exchange).filter((h) => h !== '' && h !== '.'),
    ),
    Promise.all((target.ownSenderIps ?? []).map(async (s) => ({ ...s, ...(await lookUpReverseDns(dns, s.ip)) }))),
  ]);
  return {
    checkedAt: new Date().toISOString(),
    resolves: a.length > 0 || aaaa.length > 0 || mx.hosts.length > 0 || spf.record !== null,
    ownershipVerified: ownership.some((r) => r.trim() === ownershipRecordValue(target.verificationToken)),
    spf,
    dkim,
    dmarc,
    mx,
    mtaSts,
    tlsRpt,
    bimi,
    sendingIps,
  };
}

/**
 * The status rule (docs/decisions/007): error when the domain does not resolve or SPF or DMARC is
 * missing; healthy when SPF, DKIM and DMARC are all valid; warning otherwise.
 */
export function domainStatus(checks: DomainChecks): 'healthy' | 'warning' | 'error' {
  if (!checks.resolves || checks.spf.status === 'missing' || checks.dmarc.status === 'missing') return 'error';
  if (checks.spf.status === 'valid' && checks.dkim.status === 'valid' && checks.dmarc.status === 'valid')
    return 'healthy';
  return 'warning';
}
