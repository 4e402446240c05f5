import type { z } from 'zod';
import type { Finding, SpfCheck, SpfSenderResult } from '@contracts/domains';
import type { DnsResolver } from '../../platform/dns/resolver';
import { error, info, statusOf, warning, withTag } from './finding';
import { assumedEnvelope, evaluateForSenders } from './spf-senders';
import { parseRecord } from './spf-terms';
import { LOOKUP_LIMIT, newWalk, walkRecord, type Walk } from './spf-walk';

type SpfResult = z.infer<typeof SpfCheck>;

const VOID_LIMIT = 2; // RFC 7208 section 4.6.4

/**
 * Checks the domain's SPF record as receivers evaluate it (RFC 7208, ADR 037): exactly one, valid
 * syntax, the limits of 10 DNS-querying terms and 2 void lookups (for IPv4 and IPv6 senders), and,
 * for a record that builds names from the sender, its result for each of `senderIps`.
 */
export async function checkSpf(dns: DnsResolver, domain: string, senderIps: string[] = []): Promise<SpfResult> {
  // The one lookup that may still throw: without it there is nothing to check.
  const records = withTag(await dns.txt(domain), 'v=spf1');
  if (records.length === 0) {
    return {
      status: 'missing',
      record: null,
      findings: [
        error(
          'No SPF record: receivers cannot tell which servers may send mail for this domain.',
          `Publish one TXT record at ${domain}, e.g. "v=spf1 include:_spf.google.com -all" with your provider's include.`,
        ),
      ],
      lookupCount: 0,
      voidLookupCount: 0,
      tree: null,
    };
  }
  const findings: Finding[] = [];
  if (records.length > 1) {
    findings.push(
      error(
        `${records.length} SPF records were found; receivers treat more than one as a permanent error.`,
        'Merge them into a single v=spf1 record.',
      ),
    );
  }
  const walk = newWalk(dns, domain);
  const tree = await walkRecord(walk, domain, records[0], new Set([domain]), 0);
  findings.push(...walk.findings, ...qualifierFindings(records[0]), ...limitFindings(walk));

  const dependsOnSender = walk.senderTerms.length > 0;
  const results = dependsOnSender && senderIps.length > 0 ? await evaluateForSenders(dns, domain, senderIps) : [];
  if (dependsOnSender) findings.push(...senderFindings(domain, walk.senderTerms, results));
  return {
    status: statusOf(findings),
    record: records[0],
    findings,
    lookupCount: walk.lookups,
    voidLookupCount: walk.voids.ipv4.length,
    voidLookupCountIpv6: walk.voids.ipv6.length,
    tree,
    ...(dependsOnSender ? { senderEvaluation: { ...assumedEnvelope(domain), results } } : {}),
  };
}

/** What the checked record's own "all" (or its absence) does to mail from unlisted servers. */
function qualifierFindings(record: string): Finding[] {
  const { terms } = parseRecord(record);
  const all = terms.find((t) => t.kind === 'mechanism' && t.name === 'all');
  const qualifier = all?.kind === 'mechanism' ? all.qualifier : null;
  if (qualifier === '+')
    return [
      error(
        '"+all" lets every server in the world send mail as this domain.',
        'End the record with "-all" (or "~all" while you list your senders).',
      ),
    ];
  if (qualifier === '?')
    return [
      warning(
        '"?all" is neutral: mail from unlisted servers is neither passed nor failed.',
        'End the record with "-all" or "~all".',
      ),
    ];
  if (qualifier === '~')
    return [info('"~all" soft-fails unlisted servers.', 'Once every sender is listed, switch to "-all".')];
  if (!all && !terms.some((t) => t.kind === 'modifier' && t.name === 'redirect'))
    return [
      warning(
        'The record has no "all" mechanism, so unlisted servers get a neutral result.',
        'End the record with "-all".',
      ),
    ];
  return [];
}

const listed = (terms: string[]) => terms.join(', ');

/** RFC 7208 4.6.4: at most 10 DNS-querying terms, and at most 2 void lookups, counted for each kind of sender. */
function limitFindings(walk: Walk): Finding[] {
  const findings: Finding[] = [];
  if (walk.lookups > LOOKUP_LIMIT) {
    findings.push(
      error(
        `The record needs ${walk.lookups} DNS lookups; the limit is ${LOOKUP_LIMIT}, beyond which receivers return a permanent error.`,
        'Remove includes you no longer send through, or replace some with ip4:/ip6: ranges.',
      ),
    );
  }
  const { ipv4, ipv6 } = walk.voids;
  const fix = 'Remove mechanisms that point at names without records, or publish the records they expect.';
  if (ipv4.length > VOID_LIMIT && ipv6.length > VOID_LIMIT) {
    const ipv6Differs =
      listed(ipv4) !== listed(ipv6) ? ` For an IPv6 sender there are ${ipv6.length}: ${listed(ipv6)}.` : '';
    findings.push(
      error(
        `${ipv4.length} lookups find no records at all (void lookups): ${listed(ipv4)}. The limit is ${VOID_LIMIT}, beyond which receivers return a permanent error (RFC 7208 section 4.6.4).${ipv6Differs}`,
        fix,
      ),
    );
  } else if (ipv6.length > VOID_LIMIT) {
    findings.push(
      error(
        `Mail sent over IPv6 gets a permanent error: for an IPv6 sender, ${ipv6.length} lookups find no records (void lookups): ${listed(ipv6)}. The limit is ${VOID_LIMIT} (RFC 7208 section 4.6.4); an IPv6 sender's a and mx lookups ask for AAAA records, and these names have none.`,
        'Publish AAAA records for those names, or replace those terms with ip4:/ip6: ranges.',
      ),
    );
  } else if (ipv4.length > VOID_LIMIT) {
    findings.push(
      error(
        `Mail sent over IPv4 gets a permanent error: for an IPv4 sender, ${ipv4.length} lookups find no records (void lookups): ${listed(ipv4)}. The limit is ${VOID_LIMIT} (RFC 7208 section 4.6.4); an IPv4 sender's a and mx lookups ask for A records, and these names have none.`,
        'Publish A records for those names, or replace those terms with ip4:/ip6: ranges.',
      ),
    );
  }
  return findings;
}

/** What a record that depends on the sender means, and each known sender's result when it is an error. */
function senderFindings(domain: string, senderTerms: string[], results: SpfSenderResult[]): Finding[] {
  const { sender, helo } = assumedEnvelope(domain);
  const what = `The SPF record depends on the sender: ${listed(senderTerms)} ${senderTerms.length === 1 ? 'builds its name' : 'build their names'} from the sending IP or address, so receivers look ${senderTerms.length === 1 ? 'it' : 'them'} up for each message.`;
  if (results.length === 0)
    return [
      info(`${what} It will be evaluated for your sending IPs once DMARC reports or inbox-test messages show them.`),
    ];
  const findings = [
    info(
      `${what} It was evaluated as a receiver would for ${results.length === 1 ? 'the sending IP' : `${results.length} sending IPs`} seen in DMARC reports and inbox tests, assuming the envelope sender ${sender} and HELO ${helo}.`,
    ),
  ];
  for (const r of results) {
    if (r.result === 'permerror')
      findings.push(
        error(
          `Mail from ${r.ip}, one of your sending IPs, gets a permanent SPF error: ${r.reason}`,
          'Correct what the reason names, then verify again.',
        ),
      );
    if (r.result === 'temperror')
      findings.push(
        warning(
          `SPF could not be evaluated for ${r.ip}, one of your sending IPs: ${r.reason}`,
          'Check that the DNS servers of the names the record looks up answer, then verify again.',
        ),
      );
  }
  return findings;
}
