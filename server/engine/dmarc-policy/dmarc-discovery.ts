import { DnsLookupError, type DnsResolver } from '../../platform/dns/resolver';
import { isDmarcRecord, parseDmarcRecord, policyTagsValid, type DmarcPolicy, type DmarcRecord } from './dmarc-record';

/*
 * RFC 9989 4.10: DMARC Policy Records are found, and Organizational Domains decided, by a walk up
 * the DNS tree from a domain, at most eight queries long, instead of RFC 7489's Public Suffix List.
 */

export interface TreeWalk {
  /** The domain the walk started at (lower case, no trailing dot). */
  start: string;
  /** Each name asked, in order, with the DMARC Policy Records found at _dmarc.<domain>. */
  steps: { domain: string; txt: string[]; records: string[] }[];
  /** The lookup that failed and ended the walk early: the names after it are unknown. */
  failed: FailedLookup | null;
}

/** A lookup that could not be answered (SERVFAIL, timeout): the name asked and the resolver's code. */
export interface FailedLookup {
  name: string;
  code: string;
}

export type PolicySource = 'author-domain' | 'organizational-domain' | 'public-suffix-domain';

export interface FoundPolicy {
  source: PolicySource;
  /** Where the record was published: the record is at _dmarc.<domain>. */
  domain: string;
  txt: string;
  record: DmarcRecord;
}

export interface AppliedPolicy {
  /** The tag the policy comes from (4.10.1): p at the domain's own record, sp for an existing subdomain, np for one that does not exist. */
  tag: 'p' | 'sp' | 'np';
  /** That tag's value as published, when valid. */
  requested: DmarcPolicy | null;
  /** What an RFC 9989 receiver applies to failing mail; null when it applies no DMARC processing. */
  policy: DmarcPolicy | null;
  /** 4.10.1: broken policy tags make receivers read p=none (a valid rua=) or skip DMARC (none). */
  fallback: 'none-for-invalid-policy' | 'no-dmarc-processing' | null;
  /** 4.7 t=y: the policy is applied one level below what is published. */
  testing: boolean;
}

export interface PolicyDiscovery {
  walk: TreeWalk;
  /** The record that applies to the domain; null when none does (or `failed` left it open). */
  found: FoundPolicy | null;
  /** Whether the domain exists (RFC 8020), asked only when a parent's record applies: sp= or np=. */
  exists: boolean | null;
  policy: AppliedPolicy | null;
  /** 4.10.2; null when a failed lookup left it open. */
  organizationalDomain: string | null;
  /** The lookup that kept the policy from being known (4.10.1: a DNS error is never "no record"). */
  failed: FailedLookup | null;
}

const normalize = (domain: string) => domain.trim().toLowerCase().replace(/\.$/, '');

/** 4.10 steps 3-4 and 7: the domain, then from at most 7 labels down to the last one. */
export function treeWalkNames(domain: string): string[] {
  const labels = normalize(domain).split('.');
  const names = [labels.join('.')];
  for (let n = Math.min(labels.length - 1, 7); n >= 1; n--) names.push(labels.slice(-n).join('.'));
  return names;
}

const psdFlag = (step: TreeWalk['steps'][number]) =>
  step.records.length === 1 ? parseDmarcRecord(step.records[0]).psd : 'u';

/**
 * 4.10: asks each name for its DMARC Policy Records. Records not starting with v=DMARC1 are
 * discarded, several at one name are all discarded (steps 2 and 6), and a single record with
 * psd=y or psd=n ends the walk.
 */
export async function dmarcTreeWalk(dns: DnsResolver, domain: string): Promise<TreeWalk> {
  const walk: TreeWalk = { start: normalize(domain), steps: [], failed: null };
  for (const name of treeWalkNames(domain)) {
    let txt: string[];
    try {
      txt = await dns.txt(`_dmarc.${name}`);
    } catch (error) {
      if (!(error instanceof DnsLookupError)) throw error;
      walk.failed = { name: `_dmarc.${name}`, code: error.code };
      break;
    }
    const step = { domain: name, txt, records: txt.filter(isDmarcRecord) };
    walk.steps.push(step);
    if (psdFlag(step) !== 'u') break;
  }
  return walk;
}

const withRecord = (walk: TreeWalk) => walk.steps.filter((step) => step.records.length === 1);

/** 4.10.2: psd=n names itself, psd=y (not at the start) names the domain one label below it, otherwise the fewest labels. */
export function organizationalDomain(walk: TreeWalk): string | null {
  // Names after a failed lookup may hold records that would change the answer.
  if (walk.failed) return null;
  const last = withRecord(walk).at(-1);
  if (!last) return walk.start;
  if (psdFlag(last) === 'y' && last.domain !== walk.start) {
    return walk.start
      .split('.')
      .slice(-(last.domain.split('.').length + 1))
      .join('.');
  }
  return last.domain;
}

/** 4.10.1: the record at the Author Domain, else its Organizational Domain's, else its PSD's (psd=y). */
function applicableRecord(walk: TreeWalk, org: string | null): FoundPolicy | null {
  const found = (source: PolicySource, step: TreeWalk['steps'][number]): FoundPolicy => ({
    source,
    domain: step.domain,
    txt: step.records[0],
    record: parseDmarcRecord(step.records[0]),
  });
  const own = walk.steps[0];
  if (own?.domain === walk.start && own.records.length === 1) return found('author-domain', own);
  const orgStep = withRecord(walk).find((step) => step.domain === org);
  if (orgStep) return found('organizational-domain', orgStep);
  const psd = withRecord(walk).find((step) => psdFlag(step) === 'y');
  return psd ? found('public-suffix-domain', psd) : null;
}

const ONE_LEVEL_BELOW: Record<DmarcPolicy, DmarcPolicy> = { reject: 'quarantine', quarantine: 'none', none: 'none' };

/** 4.10.1 and 4.7 (p, sp, np, t): the policy a receiver applies to mail from the domain the record was found for. */
export function appliedPolicy(found: FoundPolicy, exists: boolean): AppliedPolicy {
  const { record } = found;
  const has = (tag: 'sp' | 'np') => record.tags[tag] !== undefined;
  const tag =
    found.source === 'author-domain'
      ? 'p'
      : exists
        ? has('sp')
          ? 'sp'
          : 'p'
        : has('np')
          ? 'np'
          : has('sp')
            ? 'sp'
            : 'p';
  const requested = record[tag];
  const testing = record.t === 'y';
  if (!policyTagsValid(record)) {
    if (record.rua.length === 0) return { tag, requested, policy: null, fallback: 'no-dmarc-processing', testing };
    // 4.7 t: "no effect on any policy that is none".
    return { tag, requested, policy: 'none', fallback: 'none-for-invalid-policy', testing };
  }
  const policy = testing ? ONE_LEVEL_BELOW[requested!] : requested!;
  return { tag, requested, policy, fallback: null, testing };
}

/** 4.10.1: the DMARC Policy Record for a domain (an Author Domain, or a domain the user checks) and the policy it gets. */
export async function discoverDmarcPolicy(dns: DnsResolver, domain: string): Promise<PolicyDiscovery> {
  const walk = await dmarcTreeWalk(dns, domain);
  const org = organizationalDomain(walk);
  const found = applicableRecord(walk, org);
  const open = { walk, found: null, exists: null, policy: null, organizationalDomain: org };
  // Without the domain's own record, a failure anywhere in the walk leaves the policy unknown.
  if (walk.failed && found?.source !== 'author-domain') return { ...open, failed: walk.failed };
  if (!found) return { ...open, failed: null };
  let exists = true;
  if (found.source !== 'author-domain') {
    try {
      exists = await dns.exists(walk.start);
    } catch (error) {
      if (!(error instanceof DnsLookupError)) throw error;
      return { ...open, failed: { name: walk.start, code: error.code } };
    }
  }
  return {
    walk,
    found,
    exists: found.source === 'author-domain' ? null : exists,
    policy: appliedPolicy(found, exists),
    organizationalDomain: org,
    failed: null,
  };
}

/** The Organizational Domain of any domain (4.10.2), e.g. an authenticated identifier or a report destination's host. */
export async function organizationalDomainOf(
  dns: DnsResolver,
  domain: string,
): Promise<{ domain: string | null; failed: FailedLookup | null }> {
  const walk = await dmarcTreeWalk(dns, domain);
  return { domain: organizationalDomain(walk), failed: walk.failed };
}
