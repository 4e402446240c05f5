import type { Logger } from 'pino';
import { DnsLookupError, type DnsResolver } from '../platform/dns/resolver';
import type { Env } from '../platform/env';
import { dmarcReportAddress } from './dmarc-mailbox';

/**
 * RFC 7489 7.1: a receiver sends a domain's aggregate reports to an address in another organisation
 * only if that organisation publishes "v=DMARC1" at <domain>._report._dmarc.<its host>. Every user's
 * rua= points at dmarc@INBOUND_DOMAIN, so the operator publishes one wildcard for all of them; without
 * it, no receiver mails a single report here (the users' records stay valid: ADR 022).
 */
export const reportAuthorizationName = (inboundDomain: string) => `*._report._dmarc.${inboundDomain}`;
export const REPORT_AUTHORIZATION_VALUE = 'v=DMARC1';

/** A sender domain as a receiver would ask for it: the wildcard must cover any name. */
export const AUTHORIZATION_PROBE_DOMAIN = 'authorization-check.example';

export type ReportAuthorization =
  /** A receiver asking for any domain finds the authorization. */
  | { state: 'authorized' }
  /** DNS answered, without the authorization. */
  | { state: 'missing'; name: string }
  /** No DNS server answered (closed network, timeout): nothing is known. */
  | { state: 'unknown'; reason: string };

const hasAuthorization = (records: string[]) => records.some((r) => /^v=DMARC1(\s|;|$)/i.test(r.trim()));

/** Asks what a receiver asks (a name under the wildcard) and the wildcard's own name. */
export async function checkReportAuthorization(dns: DnsResolver, inboundDomain: string): Promise<ReportAuthorization> {
  const names = [
    `${AUTHORIZATION_PROBE_DOMAIN}._report._dmarc.${inboundDomain}`,
    reportAuthorizationName(inboundDomain),
  ];
  const answers = await Promise.all(
    names.map((name) =>
      dns.txt(name).then(
        (records) => ({ ok: true as const, records }),
        (error: unknown) => {
          if (error instanceof DnsLookupError) return { ok: false as const, reason: error.message };
          throw error;
        },
      ),
    ),
  );
  if (answers.some((a) => a.ok && hasAuthorization(a.records))) return { state: 'authorized' };
  if (answers.some((a) => a.ok)) return { state: 'missing', name: reportAuthorizationName(inboundDomain) };
  return { state: 'unknown', reason: answers.map((a) => (a.ok ? '' : a.reason)).join('; ') };
}

/**
 * At start-up (smtp role): says in the log, once, when receivers will not mail reports to the report
 * address. Never throws and is not awaited: start-up never waits on DNS. The log holds DNS names only.
 */
export async function warnIfReportsUnauthorized(
  dns: DnsResolver,
  env: Pick<Env, 'INBOUND_DOMAIN'>,
  log: Logger,
): Promise<ReportAuthorization | undefined> {
  try {
    const result = await checkReportAuthorization(dns, env.INBOUND_DOMAIN);
    const address = dmarcReportAddress(env);
    const record = `${reportAuthorizationName(env.INBOUND_DOMAIN)} TXT "${REPORT_AUTHORIZATION_VALUE}"`;
    if (result.state === 'missing') {
      log.warn(
        { reportAddress: address, publish: record },
        `DMARC report authorization missing: receivers will not mail your users' aggregate reports to ${address}, because ${result.name} has no "${REPORT_AUTHORIZATION_VALUE}" TXT record (RFC 7489 section 7.1). Publish once in the DNS of ${env.INBOUND_DOMAIN}: ${record}. Uploaded reports and DMARC_IMAP_URL are not affected.`,
      );
    } else if (result.state === 'unknown') {
      log.info(
        { reportAddress: address, reason: result.reason },
        `Could not check the DMARC report authorization (${record}): DNS did not answer`,
      );
    }
    return result;
  } catch (error) {
    log.info({ err: error }, 'Could not check the DMARC report authorization');
    return undefined;
  }
}
