import { getDomain } from 'tldts';
import type { DnsResolver } from '../platform/dns/resolver';
import { analyzeAuthentication, type SmtpEnvelope } from '../platform/message-analysis/checks/authentication';
import type { AggregateReport } from './aggregate-report';

/*
 * Anyone can mail a report to dmarc@: the mail itself must show it came from the organisation the
 * report names. It does when a DKIM signature verifies, or DMARC passes, for a domain of the
 * organisation of the report's e-mail address (report_metadata/email; org_name when that is absent):
 * noreply-dmarc-support@google.com signed by google.com is Google's report; one mailed from anywhere
 * else that says it is Google's is not.
 */

/** The domains a mail proved it came from: each DKIM signature that verified, and the From domain when DMARC passed. */
export async function provenSenderDomains(raw: Uint8Array, envelope: SmtpEnvelope | null, dns: DnsResolver): Promise<string[]> {
  try {
    const auth = await analyzeAuthentication(Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength), envelope, dns, 'inboxpulse');
    const domains = auth.dkim.filter((d) => d.result === 'pass').map((d) => d.domain);
    if (auth.dmarc?.result === 'pass' && auth.dmarc.domain) domains.push(auth.dmarc.domain);
    return [...new Set(domains.map((d) => d.toLowerCase()))];
  } catch {
    return []; // a mail mailauth cannot read proves nothing
  }
}

const organisation = (domain: string) => getDomain(domain) ?? domain;

/** Whether the mail's proven domains include the reporting organisation's. */
export function sentByReporter(report: Pick<AggregateReport, 'email' | 'orgName'>, proven: string[]): boolean {
  const claimed = report.email?.split('@').pop() ?? report.orgName;
  if (!claimed || proven.length === 0) return false;
  const org = organisation(claimed.toLowerCase());
  return proven.some((domain) => organisation(domain) === org);
}
