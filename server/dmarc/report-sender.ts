import { organizationalDomainOf } from '../engine/dmarc-policy/dmarc-discovery';
import type { DnsResolver } from '../platform/dns/resolver';
import { analyzeAuthentication, type SmtpEnvelope } from '../engine/message-analysis/checks/authentication';
import type { AggregateReport } from './aggregate-report';

/*
 * Anyone can mail a report to dmarc@: the mail itself must show it came from the organisation the
 * report names. It does when a DKIM signature verifies, or DMARC passes, for a domain of the
 * organisation of the report's e-mail address (report_metadata/email; org_name when that is absent):
 * noreply-dmarc-support@google.com signed by google.com is Google's report; one mailed from anywhere
 * else that says it is Google's is not. An organisation is an Organizational Domain as DMARC decides
 * it (RFC 9989 4.10.2, the DNS tree walk), so two registrants under one public suffix stay apart.
 */

/**
 * The Organizational Domains a mail proved it came from: of each DKIM signature that verified, and
 * of the From domain when DMARC passed. A domain whose tree walk failed stands for itself alone.
 */
export async function provenSenderDomains(
  raw: Uint8Array,
  envelope: SmtpEnvelope | null,
  dns: DnsResolver,
): Promise<string[]> {
  let domains: string[];
  try {
    const auth = await analyzeAuthentication(
      Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength),
      envelope,
      dns,
      'inboxpulse',
    );
    domains = auth.dkim.filter((d) => d.result === 'pass').map((d) => d.domain);
    if (auth.dmarc?.result === 'pass' && auth.dmarc.domain) domains.push(auth.dmarc.domain);
  } catch {
    return []; // a mail mailauth cannot read proves nothing
  }
  const organisations = await Promise.all(
    [...new Set(domains.map((d) => d.toLowerCase()))].map(
      async (d) => (await organizationalDomainOf(dns, d)).domain ?? d,
    ),
  );
  return [...new Set(organisations)];
}

/**
 * Why the mail did not prove it came from the reporting organisation, in words for the owner; null when
 * it did: the organisation's domain (of the report's e-mail, else its org_name) is one of the proven
 * Organizational Domains, or a name under one. Without DNS here the claimed domain's own tree walk is not
 * made: a name under a proven Organizational Domain counts as that organisation's even where it declared
 * itself apart (psd=n), which only that organisation's own DNS can do.
 */
export function unauthenticatedReason(
  report: Pick<AggregateReport, 'email' | 'orgName'>,
  proven: string[],
): string | null {
  const claimed = (report.email?.split('@').pop() ?? report.orgName)?.toLowerCase();
  if (!claimed) return 'The report names no reporting organisation, so its mail cannot show who sent it.';
  if (proven.some((org) => claimed === org || claimed.endsWith(`.${org}`))) return null;
  const shown =
    proven.length > 0
      ? `the mail proved only ${proven.join(', ')} (a DKIM signature or DMARC pass)`
      : 'no DKIM signature of the mail verified and DMARC did not pass for it';
  return `The report says it comes from ${claimed}, but ${shown}.`;
}
