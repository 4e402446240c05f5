import { getDomain } from 'tldts';
import type { z } from 'zod';
import type { DmarcCheck, Finding } from '@contracts/domains';
import type { DnsResolver } from '../../platform/dns/resolver';
import { parseTags } from './tag-list';
import { error, info, statusOf, warning, withTag } from './finding';

type Result = z.infer<typeof DmarcCheck>;

const POLICIES = ['none', 'quarantine', 'reject'];

/**
 * The rua= a fix asks for. The report address is dmarc@INBOUND_DOMAIN (GET /api/dmarc/intake, one
 * definition in server/dmarc); this check is not given it, so it says where the app shows it
 * instead of guessing another address.
 */
const RUA = 'rua=mailto:<your InboxPulse report address>';
const WHERE_RUA = 'Show DMARC reports on this domain gives the rua= tag to copy';

/** The registrable ("organizational") domain, e.g. mail.example.co.uk -> example.co.uk. */
export const organizationalDomain = (domain: string) => getDomain(domain) ?? domain;

/** Finds the DMARC record at _dmarc.<domain>, falling back to the organizational domain (RFC 7489 6.6.3). */
export async function checkDmarc(dns: DnsResolver, domain: string): Promise<Result> {
  let foundAt = `_dmarc.${domain}`;
  let records = withTag(await dns.txt(foundAt), 'v=DMARC1');
  const org = organizationalDomain(domain);
  if (records.length === 0 && org !== domain) {
    foundAt = `_dmarc.${org}`;
    records = withTag(await dns.txt(foundAt), 'v=DMARC1');
  }
  if (records.length === 0) {
    return {
      status: 'missing',
      record: null,
      foundAt: null,
      tags: {},
      externalReportDestinations: [],
      findings: [
        error(
          'No DMARC record: receivers apply no policy to mail that fails SPF and DKIM, and you get no reports.',
          `Publish a TXT record at _dmarc.${domain}: "v=DMARC1; p=none; ${RUA}" (${WHERE_RUA}), then move to p=quarantine.`,
        ),
      ],
    };
  }
  const findings: Finding[] = [];
  if (records.length > 1) findings.push(error(`${records.length} DMARC records at ${foundAt}; receivers ignore them all.`, 'Keep exactly one.'));
  const record = records[0];
  const tags = parseTags(record);
  const p = tags.p?.toLowerCase();
  const sp = tags.sp?.toLowerCase();
  // A subdomain without its own record gets the organizational domain's sp= when it has one (RFC 7489 6.3, 6.6.3).
  const spApplies = foundAt !== `_dmarc.${domain}` && sp !== undefined && POLICIES.includes(sp);
  if (!p || !POLICIES.includes(p))
    findings.push(error(`The policy p=${tags.p ?? '(missing)'} is not none, quarantine or reject.`, 'Set p=none, p=quarantine or p=reject.'));
  else if (spApplies) {
    const found = `The record was found at the organizational domain (${foundAt}), so its subdomain policy sp=${sp} applies to ${domain}; p=${p} is for ${org} itself.`;
    if (sp === 'none')
      findings.push(
        warning(
          `${found} sp=none is monitoring only: failing mail from ${domain} is still delivered.`,
          `Once reports show your senders pass, move to sp=quarantine, then sp=reject, at ${foundAt}, or publish a record with p=quarantine at _dmarc.${domain}.`,
        ),
      );
    else findings.push(info(found));
  } else if (p === 'none')
    findings.push(
      warning('p=none is monitoring only: failing mail is still delivered.', 'Once reports show your senders pass, move to p=quarantine, then p=reject.'),
    );
  if (sp && !POLICIES.includes(sp)) findings.push(error(`sp=${tags.sp} is not none, quarantine or reject.`, 'Fix or remove sp=.'));
  if (tags.pct !== undefined && !(/^\d+$/.test(tags.pct) && Number(tags.pct) <= 100))
    findings.push(error(`pct=${tags.pct} must be a whole number from 0 to 100.`, 'Fix or remove pct=.'));
  else if (tags.pct !== undefined && Number(tags.pct) < 100)
    findings.push(warning(`pct=${tags.pct}: the policy applies to only part of the failing mail.`, 'Raise pct to 100.'));
  for (const t of ['adkim', 'aspf'] as const) {
    if (tags[t] && !['r', 's'].includes(tags[t].toLowerCase()))
      findings.push(error(`${t}=${tags[t]} must be r (relaxed) or s (strict).`, `Fix or remove ${t}=.`));
  }
  if (tags.ri !== undefined && !/^\d+$/.test(tags.ri)) findings.push(error(`ri=${tags.ri} must be a number of seconds.`, 'Fix or remove ri=.'));
  if (tags.fo && !/^[01ds](:[01ds])*$/i.test(tags.fo))
    findings.push(error(`fo=${tags.fo} is not valid (0, 1, d, s separated by colons).`, 'Fix or remove fo=.'));
  if (!tags.rua) findings.push(warning('No rua= address: you receive no aggregate reports.', `Add ${RUA} (${WHERE_RUA}).`));

  // RFC 7489 7.1: the authorization is asked for the domain the policy was retrieved from.
  const policyDomain = foundAt.slice('_dmarc.'.length);
  const external: Result['externalReportDestinations'] = [];
  for (const uri of [tags.rua, tags.ruf].filter(Boolean).flatMap((v) => v!.split(','))) {
    const address = /^mailto:([^!]+)/i.exec(uri.trim())?.[1];
    if (!address) {
      findings.push(error(`"${uri.trim()}" is not a mailto: URI.`, 'Use rua=mailto:address@example.com.'));
      continue;
    }
    const host = address.split('@')[1]?.toLowerCase();
    if (!host || organizationalDomain(host) === organizationalDomain(policyDomain) || external.some((e) => e.domain === host)) continue;
    const authorized = withTag(await dns.txt(`${policyDomain}._report._dmarc.${host}`), 'v=DMARC1').length > 0;
    external.push({ domain: host, authorized });
    // Not an error: a receiver that finds no authorization skips that address and still applies the
    // policy (RFC 7489 7.1), so the record stays valid; only the reports to that address are lost.
    if (!authorized)
      findings.push(
        warning(
          `${host} has not authorized receiving DMARC reports for ${policyDomain}, so receivers do not send reports to ${address} until it does. Your DMARC record is valid and its policy applies.`,
          `The operator of ${host} publishes a TXT record "v=DMARC1" at ${policyDomain}._report._dmarc.${host}, or once for every domain at *._report._dmarc.${host}. Until then reports go only to your other rua= addresses.`,
        ),
      );
  }
  return { status: statusOf(findings), record, foundAt, tags, externalReportDestinations: external, findings };
}
