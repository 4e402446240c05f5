import type { z } from 'zod';
import type { DmarcCheck, DomainChecks, Finding } from '@contracts/domains';
import {
  discoverDmarcPolicy,
  organizationalDomainOf,
  type FailedLookup,
  type PolicyDiscovery,
} from '../../engine/dmarc-policy/dmarc-discovery';
import {
  DMARC_TAGS,
  isDmarcRecord,
  whyNotDmarcRecord,
  type DmarcRecord,
  type ReportUri,
} from '../../engine/dmarc-policy/dmarc-record';
import { DnsLookupError, type DnsResolver } from '../../platform/dns/resolver';
import { checkOf, error, info, statusOf, warning } from './finding';

type Result = z.infer<typeof DmarcCheck>;
type Found = NonNullable<PolicyDiscovery['found']>;
type Applied = NonNullable<PolicyDiscovery['policy']>;

/**
 * The rua= a fix asks for. The report address is dmarc@INBOUND_DOMAIN (GET /api/dmarc/intake, one
 * definition in server/dmarc); this check is not given it, so it says where the app shows it
 * instead of guessing another address.
 */
const RUA = 'rua=mailto:<your InboxPulse report address>';
const WHERE_RUA = 'Show DMARC reports on this domain gives the rua= tag to copy';
const STILL_APPLIES = 'Your DMARC record is valid and its policy applies.';

/**
 * The DMARC record that applies to a domain, found as RFC 9989 4.10.1 has receivers find it (the
 * DNS tree walk: the domain, its Organizational Domain, a public suffix domain), and read as they
 * read it: what they discard is a warning and the policy still applies; only what makes them
 * ignore the record or skip DMARC is an error (docs/decisions/038).
 */
export async function checkDmarc(
  dns: DnsResolver,
  domain: string,
  lastKnown?: Pick<DomainChecks, 'checkedAt' | 'dmarc'> | null,
): Promise<Result> {
  const discovery = await discoverDmarcPolicy(dns, domain);
  const { walk, found, policy } = discovery;
  const own = walk.steps[0];
  // The domain's own _dmarc name is its first lookup: a failure there fails the domain check, as every check's first
  // lookup does.
  if (!own) throw new DnsLookupError(walk.failed!.name, 'TXT', walk.failed!.code);
  const findings = ownNameFindings(domain, own, found);
  const attempted = own.records[0] ?? own.txt.find((txt) => whyNotDmarcRecord(txt)) ?? null;
  const none = {
    record: attempted,
    foundAt: attempted ? `_dmarc.${domain}` : null,
    tags: {},
    externalReportDestinations: [],
  };
  if (discovery.failed) {
    const known = lastKnown?.dmarc;
    // An earlier answer is kept (and said to be kept): one failed lookup is not a record removed or a policy gone.
    if (known && (!known.failedLookup || known.lastFoundAt)) {
      const lastFoundAt = known.lastFoundAt ?? lastKnown!.checkedAt;
      // without the note of the last failure
      const earlier = known.failedLookup ? known.findings.slice(1) : known.findings;
      return {
        ...known,
        findings: [keptAfterFailure(discovery.failed, lastFoundAt), ...earlier],
        failedLookup: discovery.failed,
        lastFoundAt,
      };
    }
    return {
      ...none,
      status: 'invalid',
      findings: [...findings, lookupFailed(domain, discovery.failed)],
      failedLookup: discovery.failed,
    };
  }
  if (!found || !policy) {
    if (findings.length > 0) return { ...none, status: 'invalid', findings };
    return {
      ...none,
      status: 'missing',
      findings: [
        error(
          'No DMARC record: receivers apply no policy to mail that fails SPF and DKIM, and you get no reports.',
          `Publish a TXT record at _dmarc.${domain}: "v=DMARC1; p=none; ${RUA}" (${WHERE_RUA}), then move to p=quarantine.`,
        ),
      ],
    };
  }
  findings.push(...whereFound(domain, discovery, found, policy), ...policyFindings(domain, found, policy));
  let external: Result['externalReportDestinations'] = [];
  // A public suffix's record is its operator's: its tags and report addresses are nothing the domain's owner can fix.
  if (found.source !== 'public-suffix-domain') {
    findings.push(...tagFindings(found, policy));
    external = await reportDestinations(dns, found, findings);
  }
  return {
    status: statusOf(findings),
    record: found.txt,
    foundAt: `_dmarc.${found.domain}`,
    tags: found.record.tags,
    externalReportDestinations: external,
    findings,
    discovery: {
      source: found.source,
      organizationalDomain: discovery.organizationalDomain,
      queried: walk.steps.map((step) => step.domain),
      policyTag: policy.tag,
      requestedPolicy: policy.requested,
      appliedPolicy: policy.policy,
      testing: policy.testing,
    },
  };
}

/** Records at the domain's own name that receivers discard (RFC 9989 4.7 v, 4.10 step 2), and what applies instead. */
function ownNameFindings(
  domain: string,
  own: PolicyDiscovery['walk']['steps'][number],
  found: Found | null,
): Finding[] {
  const findings: Finding[] = [];
  const instead = found
    ? `, and apply the record at _dmarc.${found.domain} instead`
    : `, so no DMARC policy applies to ${domain}`;
  if (own.records.length > 1)
    findings.push(
      error(
        `${own.records.length} DMARC records at _dmarc.${domain}; receivers discard them all (RFC 9989 4.10)${instead}.`,
        'Keep exactly one: merge them into one "v=DMARC1; …" record.',
      ),
    );
  for (const txt of own.txt) {
    const why = whyNotDmarcRecord(txt);
    if (!why) continue;
    const [rule, fixed] =
      why === 'version-case'
        ? ['its version must be written v=DMARC1, in capitals', txt.replace(/^\s*v\s*=\s*dmarc1/i, 'v=DMARC1')]
        : ['a ";" must follow v=DMARC1', txt.replace(/^\s*v\s*=\s*DMARC1[ \t]*/i, 'v=DMARC1; ')];
    const message = `The TXT record at _dmarc.${domain} is not a DMARC record: ${rule} (RFC 9989 4.7), so receivers ignore "${txt}".`;
    // Beside a valid record it is only clutter; alone, it is the domain's policy that receivers never see.
    findings.push((own.records.length === 1 ? warning : error)(message, `Publish it as "${fixed}".`));
  }
  return findings;
}

function lookupFailed(domain: string, failed: FailedLookup): Finding {
  const zone = failed.name.replace(/^_dmarc\./, '');
  return error(
    `The DMARC lookup of ${failed.name} failed (${failed.code}), so whether a parent domain’s record applies to ${domain} is unknown; receivers that hit the same failure may defer or distrust its mail.`,
    `Make sure the DNS servers of ${zone} answer TXT queries for ${failed.name}; the check runs again on its own.`,
  );
}

function keptAfterFailure(failed: FailedLookup, lastFoundAt: string): Finding {
  const zone = failed.name.replace(/^_dmarc\./, '');
  return warning(
    `The DMARC lookup of ${failed.name} failed (${failed.code}) at this check; what is shown is the verdict of ${checkOf(lastFoundAt)}.`,
    `Make sure the DNS servers of ${zone} answer TXT queries for ${failed.name}; the check runs again on its own.`,
  );
}

/** Which tag of a parent's record applies to the domain, and why (RFC 9989 4.10.1, 4.7 sp and np). */
function tagReason(domain: string, found: Found, policy: Applied, exists: boolean): string {
  const value = `${policy.tag}=${found.record.tags[policy.tag]}`;
  const gone = `${domain} does not exist in the DNS (NXDOMAIN)`;
  switch (policy.tag) {
    case 'np':
      return `${gone}, so ${value} applies, the record’s policy for non-existent subdomains.`;
    case 'sp':
      return exists
        ? `${domain} exists, so the record’s ${value}, its policy for subdomains, applies.`
        : `${gone} and the record has no np=, so its ${value} applies.`;
    default:
      return exists
        ? `It has no sp=, so its ${value} applies to subdomains too.`
        : `${gone} and the record has neither np= nor sp=, so its ${value} applies.`;
  }
}

function whereFound(domain: string, discovery: PolicyDiscovery, found: Found, policy: Applied): Finding[] {
  if (found.source === 'author-domain') return [];
  const reason = tagReason(domain, found, policy, discovery.exists !== false);
  if (found.source === 'organizational-domain')
    return [
      info(
        `No record at _dmarc.${domain}; the DNS tree walk (RFC 9989 4.10) found the record of its Organizational Domain, ${found.domain}. ${reason}`,
      ),
    ];
  const org = discovery.organizationalDomain ?? domain;
  const orgToo = org === domain ? '' : ` or at its Organizational Domain, ${org}`;
  return [
    warning(
      `No record at _dmarc.${domain}${orgToo}; the policy comes from ${found.domain}, a public suffix domain (psd=y), whose operator sets it for every domain under it. ${reason}`,
      `Publish your own record at _dmarc.${org}, e.g. "v=DMARC1; p=none; ${RUA}", then move to p=quarantine.`,
    ),
  ];
}

const POLICY_VALUES = 'none, quarantine or reject';

/** What is wrong with p=, sp= and np=, in the order receivers read them (4.10.1). */
function policyTagProblems(record: DmarcRecord): string[] {
  const problems = [
    record.tags.p === undefined
      ? 'p= is missing'
      : record.p === null
        ? `p=${record.tags.p} is not ${POLICY_VALUES}`
        : null,
  ];
  for (const tag of ['sp', 'np'] as const)
    if (record.tags[tag] !== undefined && record[tag] === null)
      problems.push(`${tag}=${record.tags[tag]} is not ${POLICY_VALUES}`);
  return problems.filter((p) => p !== null);
}

function policyFindings(domain: string, found: Found, policy: Applied): Finding[] {
  const { record } = found;
  if (policy.fallback) {
    const lead = `The record’s policy is not usable (${policyTagProblems(record).join('; ')})`;
    const fix = `Set p=none (monitoring), p=quarantine or p=reject${record.tags.sp !== undefined || record.tags.np !== undefined ? ', and fix or remove sp= and np=' : ''}.`;
    if (policy.fallback === 'no-dmarc-processing')
      return [
        error(
          `${lead} and it has no valid rua= address, so receivers apply no DMARC processing to mail from ${domain} (RFC 9989 4.10.1).`,
          fix,
        ),
      ];
    return [
      warning(
        `${lead}, so receivers act as if the record said p=none, because it has a valid rua= address (RFC 9989 4.10.1): failing mail is still delivered.`,
        fix,
      ),
    ];
  }
  const tag = `${policy.tag}=${policy.requested}`;
  if (policy.requested === 'none') {
    const elsewhere =
      found.source === 'author-domain'
        ? ''
        : `, at _dmarc.${found.domain}, or publish a record with p=quarantine at _dmarc.${domain}`;
    return [
      warning(
        `${tag} is monitoring only: failing mail${found.source === 'author-domain' ? '' : ` from ${domain}`} is still delivered.`,
        `Once reports show your senders pass, move to ${policy.tag}=quarantine, then ${policy.tag}=reject${elsewhere}.`,
      ),
    ];
  }
  if (policy.testing)
    return [
      warning(
        `t=y: the domain is testing its policy, so receivers following RFC 9989 apply ${policy.policy}, one level below ${tag}, to failing mail. Receivers that still follow RFC 7489 ignore t= and apply ${tag}.`,
        'Remove t=y once your DMARC reports show that all your legitimate mail passes.',
      ),
    ];
  return [];
}

/** What a tag's value may be, and the default receivers use in place of an invalid one (RFC 9989 4.7, 4.8). */
const VALID_VALUES: Record<string, [allowed: string, fallback: string]> = {
  adkim: ['r for relaxed or s for strict', 'r'],
  aspf: ['r for relaxed or s for strict', 'r'],
  psd: ['y, n or u', 'u'],
  t: ['y or n', 'n'],
  fo: ['0, 1, d or s, separated by colons, not 0 and 1 together', '0'],
};

/** RFC 9989 C.5.2: pct, rf and ri are gone; receivers still following RFC 7489 read pct. */
function removedTagFindings(record: DmarcRecord, policy: Applied): Finding[] {
  const findings: Finding[] = [];
  const pct = record.tags.pct;
  const enforced = policy.requested === 'quarantine' || policy.requested === 'reject';
  if (pct !== undefined && record.pct === null)
    findings.push(
      warning(
        `pct=${pct} is not a whole number from 0 to 100: receivers that still follow RFC 7489 discard it and apply the policy to all failing mail, and RFC 9989 removed pct= altogether.`,
        'Remove pct=.',
      ),
    );
  else if (record.pct !== null && record.pct < 100 && enforced)
    findings.push(
      warning(
        `pct=${record.pct}: receivers that still follow RFC 7489 apply ${policy.tag}=${policy.requested} to only ${record.pct}% of failing mail. RFC 9989 removed pct=, so receivers following it apply the policy to all failing mail; its t=y replaces pct=0 for testing.`,
        'Remove pct= so every receiver applies the policy to all failing mail; while you test a stricter policy, use t=y instead.',
      ),
    );
  else if (record.pct === 100)
    findings.push(info('pct=100 is the default, and RFC 9989 removed pct=; it can go.', 'Remove pct=.'));
  else if (record.pct !== null)
    findings.push(
      info(`pct=${record.pct} has no effect under ${policy.tag}=none, and RFC 9989 removed pct=.`, 'Remove pct=.'),
    );
  if (record.tags.rf !== undefined)
    findings.push(
      info(
        'rf= was removed by RFC 9989 (failure reports are always in the AFRF format); receivers ignore it.',
        'Remove rf=.',
      ),
    );
  if (record.tags.ri !== undefined)
    findings.push(
      info(
        'ri= was removed by RFC 9989: receivers send aggregate reports at least once a day, whatever it asks.',
        'Remove ri=.',
      ),
    );
  return findings;
}

function uriFindings(tag: 'rua' | 'ruf', uris: ReportUri[]): Finding[] {
  const findings: Finding[] = [];
  for (const uri of uris) {
    if (uri.scheme !== 'mailto')
      findings.push(
        warning(
          `${tag}= lists ${uri.uri}: receivers are only required to send reports to mailto: addresses (RFC 9989 4.7) and ignore schemes they do not support, so reports are not sent there. ${STILL_APPLIES}`,
          tag === 'rua'
            ? `Use a mailto: address in rua=, e.g. ${RUA} (${WHERE_RUA}).`
            : 'Use a mailto: address in ruf=.',
        ),
      );
    if (uri.obsoleteSize)
      findings.push(
        info(
          `The size limit "!${uri.obsoleteSize}" after ${uri.uri} is obsolete: RFC 9989 receivers ignore it.`,
          `Remove "!${uri.obsoleteSize}".`,
        ),
      );
  }
  return findings;
}

function tagFindings(found: Found, policy: Applied): Finding[] {
  const { record } = found;
  const findings: Finding[] = [];
  for (const { tag, value } of record.invalid) {
    if (tag === 'rua' || tag === 'ruf') {
      const address = /^[^\s:@]+@[^\s@]+$/.test(value);
      findings.push(
        warning(
          `"${value}" in ${tag}= is not a URI${address ? ' (an address needs mailto: before it)' : ''}; receivers discard it. ${STILL_APPLIES}`,
          address ? `Write it as ${tag}=mailto:${value}.` : `Use ${tag}=mailto:<address>.`,
        ),
      );
    } else if (VALID_VALUES[tag]) {
      const [allowed, fallback] = VALID_VALUES[tag];
      findings.push(
        warning(
          `${tag}=${value} is not valid (${allowed}); receivers ignore it and use ${tag}=${fallback}.`,
          `Set ${tag}= to a valid value or remove it.`,
        ),
      );
    }
  }
  findings.push(...uriFindings('rua', record.rua), ...uriFindings('ruf', record.ruf));
  findings.push(...removedTagFindings(record, policy));
  if (record.psd === 'y')
    findings.push(
      warning(
        `psd=y declares ${found.domain} a public suffix domain (RFC 9989 4.7): the domains under it count as separate organizations, so their mail no longer aligns with ${found.domain} in relaxed mode.`,
        'Remove psd=y unless you operate a public suffix, such as a top-level domain.',
      ),
    );
  if (record.psd === 'n')
    findings.push(
      info(`psd=n: ${found.domain} is the Organizational Domain for itself and its subdomains (RFC 9989 4.10.2).`),
    );
  for (const tag of record.repeated)
    findings.push(
      warning(
        `${tag}= appears more than once; receivers may read either value (this check reads the first, ${tag}=${record.tags[tag]}).`,
        `Keep one ${tag}=.`,
      ),
    );
  for (const part of record.malformed)
    findings.push(
      warning(`"${part}" is not a tag=value pair; receivers ignore it.`, 'Remove it or write it as tag=value.'),
    );
  for (const tag of record.unknown)
    findings.push(
      info(
        `${tag}= is not a DMARC tag; receivers ignore it.`,
        `Remove ${tag}= or correct its name (DMARC tags: ${DMARC_TAGS.filter((t) => t !== 'v').join(', ')}).`,
      ),
    );
  if (record.tags.rua === undefined)
    findings.push(warning('No rua= address: you receive no aggregate reports.', `Add ${RUA} (${WHERE_RUA}).`));
  return findings;
}

/**
 * RFC 9990 3 (and RFC 9991 for ruf=): a report address whose host has another Organizational
 * Domain than the policy's (both found by tree walk) receives reports only once that host
 * publishes v=DMARC1 at <policy domain>._report._dmarc.<host>.
 */
async function reportDestinations(
  dns: DnsResolver,
  found: Found,
  findings: Finding[],
): Promise<Result['externalReportDestinations']> {
  const policyDomain = found.domain;
  const hosts = [
    ...new Set([...found.record.rua, ...found.record.ruf].map((uri) => uri.host).filter((host) => host !== null)),
  ];
  const external: Result['externalReportDestinations'] = [];
  if (hosts.length === 0) return external;
  const unchecked = (host: string, failed: FailedLookup) =>
    warning(
      `Whether ${host} accepts DMARC reports for ${policyDomain} could not be checked: the lookup of ${failed.name} failed (${failed.code}). ${STILL_APPLIES}`,
      `The check runs again on its own; if this stays, ask the operator of ${host} whether their DNS answers for _report._dmarc names.`,
    );
  const ours = await organizationalDomainOf(dns, policyDomain);
  for (const host of hosts) {
    const theirs = await organizationalDomainOf(dns, host);
    const failed = ours.failed ?? theirs.failed;
    if (failed) {
      findings.push(unchecked(host, failed));
      continue;
    }
    if (theirs.domain === ours.domain) continue;
    // RFC 9990 3 step 3: the name is built from the domain the policy was retrieved from.
    const name = `${policyDomain}._report._dmarc.${host}`;
    let authorized: boolean;
    try {
      authorized = (await dns.txt(name)).some(isDmarcRecord);
    } catch (err) {
      if (!(err instanceof DnsLookupError)) throw err;
      findings.push(unchecked(host, { name, code: err.code }));
      continue;
    }
    external.push({ domain: host, authorized });
    // Not an error: a receiver that finds no authorization skips that address and still applies the policy.
    if (!authorized) {
      const addresses = [...found.record.rua, ...found.record.ruf]
        .filter((uri) => uri.host === host)
        .map((uri) => uri.address);
      findings.push(
        warning(
          `${host} has not authorized receiving DMARC reports for ${policyDomain}, so receivers do not send reports to ${[...new Set(addresses)].join(', ')} until it does. ${STILL_APPLIES}`,
          `The operator of ${host} publishes a TXT record "v=DMARC1" at ${name}, or once for every domain at *._report._dmarc.${host}. Until then reports go only to your other rua= addresses.`,
        ),
      );
    }
  }
  return external;
}
