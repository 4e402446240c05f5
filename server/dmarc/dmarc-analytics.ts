import {
  DmarcSource,
  type DmarcAnalytics,
  type DmarcReporter,
  type DmarcThreat,
  type SourceCoverage,
} from '@contracts/dmarc';
import { getDomain } from 'tldts';
import type { AnalyticsRows, SourceAuthRow, SourceRow } from './dmarc-analytics.repo';
import type { SourceName } from './source-names';
import { sendingService, serviceByAuthDomain, serviceByReverseDns, type SendingService } from './sending-services';
import { percentOf } from '@contracts/figures';
import { reporterHealth, type ReporterActivity } from './reporter-health';
import { threatSeverity } from './threat-severity';

/*
 * DMARC analytics from aggregated rows (dmarc-analytics.repo.ts). Definitions:
 * - compliance: messages that passed DMARC (aligned DKIM or aligned SPF pass, as the receiver
 *   evaluated it: policy_evaluated) / all messages, in percent, weighted by message count.
 * - a source: an organisation (registrable domain of the PTR name) when reverse DNS names it,
 *   otherwise the sending service whose published networks hold the IP, otherwise the single IP. Its
 *   service is recognised by PTR name first, then by published network, then by the domains SPF/DKIM passed for.
 * - a threat: a source with messages that failed DMARC in the period. Its severity is set by how
 *   many of its messages failed (THREAT_THRESHOLDS, threat-severity.ts); its type is 'misaligned' when most of those
 *   messages passed SPF or DKIM for some other domain (a real service not set up for the domain,
 *   or forwarding), else 'spoofing' (nothing authenticated them).
 */

/** p=none can move to quarantine (and quarantine to reject) once compliance is above this. */
export const ENFORCE_AT_COMPLIANCE = 98;
/** Sources named by reverse DNS: the busiest by volume and by failures; the rest stay by IP. */
export const NAMED_BY_VOLUME = 100;
export const NAMED_BY_FAILURES = 50;
const TOP_THREATS = 10;
const TOP_SOURCES = 100;
/** The busiest sources whose raw auth results are read (loadSourceAuth), and the IPs read per source. */
export const EXPLAINED_SOURCES = 20;
const EXPLAINED_IPS_PER_SOURCE = 5;
/** Sources advised on at most, the busiest first, and the share of all messages a source needs for it. */
const ADVISED_SOURCES = 5;
const ADVICE_MIN_SHARE = 0.01;
/** An aligned share at or above this "passes"; below NEVER_ALIGNED it practically never does. */
const PASSES = 0.9;
const NEVER_ALIGNED = 0.1;

/** Which source IPs are worth a reverse DNS lookup. */
export function ipsToName(rows: SourceRow[]): string[] {
  const byIp = new Map<string, { total: number; failed: number }>();
  for (const row of rows) {
    const ip = byIp.get(row.sourceIp) ?? { total: 0, failed: 0 };
    ip.total += row.total;
    ip.failed += row.failed;
    byIp.set(row.sourceIp, ip);
  }
  const ips = [...byIp.entries()];
  const top = (key: 'total' | 'failed', n: number) =>
    ips
      .filter(([, v]) => v[key] > 0)
      .sort((a, b) => b[1][key] - a[1][key])
      .slice(0, n)
      .map(([ip]) => ip);
  return [...new Set([...top('total', NAMED_BY_VOLUME), ...top('failed', NAMED_BY_FAILURES)])];
}

/** The groups whose raw auth results are worth reading: the busiest sources, a few IPs each. */
export function ipsToExplain(rows: SourceRow[], names: Map<string, SourceName>): string[] {
  return groupSources(rows, names)
    .slice(0, EXPLAINED_SOURCES)
    .flatMap((group) => group.ips.slice(0, EXPLAINED_IPS_PER_SOURCE));
}

/** A raw result summed over a source's messages: "sendgrid.net pass 950". */
interface AuthResult {
  domain: string;
  result: string;
  count: number;
}

interface SourceGroup extends DmarcSource {
  failedMisaligned: number;
  domains: Set<string>;
  ipCounts: Map<string, number>;
  spfAuth: AuthResult[];
  dkimAuth: AuthResult[];
  known: SendingService | null;
}

const orgOf = (domain: string) => getDomain(domain) ?? domain;

/** Raw results of the group's IPs, and from them the domains it authenticates as and the provider it is. */
function explain(group: SourceGroup, auth: Map<string, SourceAuthRow[]>) {
  const sum = (kind: 'spf' | 'dkim') => {
    const byKey = new Map<string, AuthResult>();
    for (const ip of group.ips) {
      for (const row of auth.get(ip) ?? []) {
        if (row.kind !== kind) continue;
        const key = `${row.domain} ${row.result}`;
        const seen = byKey.get(key) ?? { domain: row.domain, result: row.result, count: 0 };
        seen.count += row.count;
        byKey.set(key, seen);
      }
    }
    return [...byKey.values()].sort((a, b) => b.count - a.count);
  };
  group.spfAuth = sum('spf');
  group.dkimAuth = sum('dkim');
  const own = new Set([...group.domains].map(orgOf));
  const passedFor = [...group.dkimAuth, ...group.spfAuth]
    .filter((r) => r.result === 'pass')
    .map((r) => orgOf(r.domain));
  group.authDomains = [...new Set(passedFor.filter((org) => !own.has(org)))];
  if (group.known) return;
  const byAuth = group.authDomains.map(serviceByAuthDomain).find(Boolean);
  if (byAuth) recognise(group, byAuth, 'authenticated-domain');
}

function recognise(group: SourceGroup, service: SendingService, by: NonNullable<DmarcSource['providerMatchedBy']>) {
  group.known = service;
  group.provider = service.name;
  group.providerMatchedBy = by;
}

export function groupSources(rows: SourceRow[], names: Map<string, SourceName>): SourceGroup[] {
  const groups = new Map<string, SourceGroup>();
  for (const row of rows) {
    const name = names.get(row.sourceIp);
    const key = name?.organisation
      ? `org:${name.organisation}`
      : name?.publishedBy
        ? `service:${name.publishedBy}`
        : `ip:${row.sourceIp}`;
    let group = groups.get(key);
    if (!group) {
      group = {
        ips: [],
        reverseDns: null,
        organisation: name?.organisation ?? null,
        provider: null,
        authDomains: [],
        count: 0,
        spfAligned: 0,
        dkimAligned: 0,
        failed: 0,
        failedMisaligned: 0,
        dispositions: {},
        domains: new Set(),
        ipCounts: new Map(),
        spfAuth: [],
        dkimAuth: [],
        known: null,
      };
      groups.set(key, group);
    }
    group.count += row.total;
    group.spfAligned += row.spfAligned;
    group.dkimAligned += row.dkimAligned;
    group.failed += row.failed;
    group.failedMisaligned += row.failedMisaligned;
    group.dispositions[row.disposition] = (group.dispositions[row.disposition] ?? 0) + row.total;
    for (const domain of row.domains) group.domains.add(domain);
    group.ipCounts.set(row.sourceIp, (group.ipCounts.get(row.sourceIp) ?? 0) + row.total);
  }
  for (const group of groups.values()) {
    group.ips = [...group.ipCounts.entries()].sort((a, b) => b[1] - a[1]).map(([ip]) => ip);
    group.reverseDns = names.get(group.ips[0])?.reverseDns ?? null;
    const byPtr = group.ips.map((ip) => serviceByReverseDns(names.get(ip)?.reverseDns)).find(Boolean);
    const published = group.ips.map((ip) => names.get(ip)?.publishedBy).find(Boolean);
    const byNetwork = published ? sendingService(published) : null;
    if (byPtr) recognise(group, byPtr, 'reverse-dns');
    else if (byNetwork) recognise(group, byNetwork, 'published-network');
  }
  return [...groups.values()].sort((a, b) => b.count - a.count);
}

function describeSource(group: SourceGroup): string {
  if (group.organisation)
    return `${group.organisation} (${group.ips.length === 1 ? group.ips[0] : `${group.ips.length} IPs`})`;
  return group.reverseDns ? `${group.ips[0]} (${group.reverseDns})` : group.ips[0];
}

/** "Source 198.51.100.7 (SendGrid, sendgrid.net)": the IPs and every name known for them. */
function sourceLabel(group: SourceGroup): string {
  const ips =
    group.ips.length === 1
      ? group.ips[0]
      : `${group.ips[0]} and ${group.ips.length - 1} more IP${group.ips.length === 2 ? '' : 's'}`;
  const names = [
    ...new Set(
      [group.provider, group.organisation ?? group.reverseDns ?? group.authDomains[0]].filter((n): n is string =>
        Boolean(n),
      ),
    ),
  ];
  return `Source ${ips}${names.length ? ` (${names.join(', ')})` : ''}`;
}

export function toThreat(group: SourceGroup): DmarcThreat {
  const type = group.failedMisaligned * 2 > group.failed ? 'misaligned' : 'spoofing';
  const domains = [...group.domains].sort().join(', ');
  const what =
    type === 'spoofing'
      ? 'Neither SPF nor DKIM passed for them: likely spoofing.'
      : 'SPF or DKIM passed, but for another domain: a service sending for you without alignment, or forwarding.';
  return {
    type,
    severity: threatSeverity(group.failed),
    sourceIPs: group.ips,
    frequency: group.failed,
    description: `${group.failed} message${group.failed === 1 ? '' : 's'} from ${describeSource(group)} failed DMARC for ${domains}. ${what}`,
  };
}

export function buildAnalytics(
  days: number,
  domain: string | null,
  rows: AnalyticsRows,
  names: Map<string, SourceName>,
  auth: SourceAuthRow[] = [],
  spfIncludes: Map<string, Set<string>> = new Map(),
  now = new Date(),
): DmarcAnalytics {
  const volume = new Map<string, { messages: number; passed: number }>();
  const byDomain = new Map<string, { messages: number; passed: number }>();
  let totalReports = 0;
  let messages = 0;
  let passed = 0;
  for (const row of rows.days) {
    totalReports += row.reports;
    messages += row.messages;
    passed += row.passed;
    const day = volume.get(row.date) ?? { messages: 0, passed: 0 };
    day.messages += row.messages;
    day.passed += row.passed;
    volume.set(row.date, day);
    const d = byDomain.get(row.domain ?? '') ?? { messages: 0, passed: 0 };
    d.messages += row.messages;
    d.passed += row.passed;
    byDomain.set(row.domain ?? '', d);
  }
  const trendDays = [...volume.entries()].sort((a, b) => a[0].localeCompare(b[0]));

  const groups = groupSources(rows.sources, names);
  const authByIp = new Map<string, SourceAuthRow[]>();
  for (const row of auth) authByIp.set(row.sourceIp, [...(authByIp.get(row.sourceIp) ?? []), row]);
  for (const group of groups.slice(0, EXPLAINED_SOURCES)) explain(group, authByIp);
  const failing = groups.filter((g) => g.failed > 0).sort((a, b) => b.failed - a.failed);
  const threats = failing.map(toThreat);
  // IPs beyond the rows loaded are threats of their own, counted by the database (loadAnalyticsRows).
  const threatSummary = { ...rows.otherSources.failing };
  for (const threat of threats) threatSummary[threat.severity]++;

  const reporters = mergeReporters(rows.reporters).map((r) => ({
    orgName: r.orgName,
    lastReportAt: r.lastReportAt.toISOString(),
    reports: r.reports,
    ...reporterHealth(r, now),
  }));

  return {
    days,
    domain,
    totalReports,
    totalMessages: messages,
    averageCompliance: percentOf(passed, messages, 2),
    threatSummary,
    trends: {
      volume: trendDays.map(([date, v]) => ({ date, value: v.messages })),
      compliance: trendDays.flatMap(([date, v]) => {
        const value = percentOf(v.passed, v.messages, 2);
        return value === null ? [] : [{ date, value }];
      }),
    },
    topThreats: threats.slice(0, TOP_THREATS),
    recommendations: recommend({ days, byDomain, rows, groups, totalMessages: messages, threats, reporters }),
    // The contract's fields only: a group's tallies (raw results, per-IP counts, the provider found) stay here.
    sources: groups
      .slice(0, TOP_SOURCES)
      .map((group) => DmarcSource.parse({ ...group, coverage: coverage(group, spfIncludes) })),
    reporters,
  };
}

interface RecommendInput {
  days: number;
  byDomain: Map<string, { messages: number; passed: number }>;
  rows: AnalyticsRows;
  groups: SourceGroup[];
  totalMessages: number;
  threats: DmarcThreat[];
  reporters: DmarcReporter[];
}

const percent = (part: number, whole: number) => `${Math.round((part / whole) * 100)}%`;

/** How to get SPF aligned for a source, from what its SPF results say. */
function spfFix(group: SourceGroup, fromDomains: string): string {
  const own = new Set([...group.domains].map(orgOf));
  const include = group.known?.spfIncludes[0];
  const at = group.provider ? ` at ${group.provider}` : '';
  const ownFailing = group.spfAuth.find((r) => own.has(orgOf(r.domain)) && r.result !== 'pass');
  const foreign = group.spfAuth.find((r) => !own.has(orgOf(r.domain)));
  if (ownFailing) {
    const add = include
      ? `include:${include}`
      : group.ips.length === 1
        ? `ip4:${group.ips[0]} (or its provider's include)`
        : "its provider's include";
    return `its return-path is ${ownFailing.domain}, whose SPF does not list it (SPF ${ownFailing.result}): add ${add} to the SPF record of ${ownFailing.domain}`;
  }
  if (foreign) {
    return `its return-path (MAIL FROM) is ${foreign.domain}, not under ${fromDomains}: set a custom return-path (bounce domain) under ${fromDomains}${at}${include ? `, whose SPF includes ${include}` : ''}`;
  }
  return include
    ? `add include:${include} to your SPF or set a custom return-path under ${fromDomains}${at}`
    : `add it to your SPF${group.ips.length === 1 ? ` (ip4:${group.ips[0]})` : ''} or set a custom return-path under ${fromDomains}${at}`;
}

/** How to get DKIM aligned for a source, from what its DKIM results say. */
function dkimFix(group: SourceGroup, fromDomains: string): string {
  const own = new Set([...group.domains].map(orgOf));
  const where = group.provider ? `at ${group.provider}` : 'on the server or service that sends it';
  const ownFailing = group.dkimAuth.find((r) => own.has(orgOf(r.domain)) && r.result !== 'pass');
  const foreign = group.dkimAuth.find((r) => !own.has(orgOf(r.domain)) && r.result === 'pass');
  if (ownFailing)
    return `its DKIM signature for ${ownFailing.domain} fails (${ownFailing.result}): check that the public key published in DNS is the one ${group.provider ?? 'this source'} signs with`;
  if (foreign)
    return `it signs with d=${foreign.domain}, not ${fromDomains}: set up DKIM for ${fromDomains} ${where} and publish its public key in DNS`;
  return `set up DKIM signing with d=${fromDomains} ${where} and publish its public key in DNS`;
}

const level = (share: number): SourceCoverage['spf'] =>
  share >= PASSES ? 'covered' : share < NEVER_ALIGNED ? 'not covered' : 'partly';

/**
 * Whether SPF and DKIM cover a source, from the receivers' aligned results, and whether the From domains' SPF
 * records (as last checked) include its service's include. A fix is given only for a sender to set up: a known
 * service, or one whose mail passes aligned sometimes; mail nothing authenticates is for the threats.
 */
function coverage(group: SourceGroup, spfIncludes: Map<string, Set<string>>): SourceCoverage {
  const spf = level(group.count ? group.spfAligned / group.count : 0);
  const dkim = level(group.count ? group.dkimAligned / group.count : 0);
  const fromDomains = [...group.domains].sort().join(', ');
  const setUp = group.provider !== null || group.spfAligned + group.dkimAligned > 0;
  return {
    spf,
    dkim,
    spfRecord: publishedInclude(group, spfIncludes),
    spfFix: setUp && spf !== 'covered' ? spfFix(group, fromDomains) : undefined,
    dkimFix: setUp && dkim !== 'covered' ? dkimFix(group, fromDomains) : undefined,
  };
}

function publishedInclude(group: SourceGroup, spfIncludes: Map<string, Set<string>>): SourceCoverage['spfRecord'] {
  const includes = group.known?.spfIncludes ?? [];
  const checked = [...group.domains].sort().filter((d) => spfIncludes.has(d));
  if (includes.length === 0 || checked.length === 0) return undefined;
  const has = (d: string) => includes.find((include) => spfIncludes.get(d)!.has(include));
  const includedBy = checked.filter(has);
  return {
    include: (includedBy.length > 0 && has(includedBy[0])) || includes[0],
    includedBy,
    notIncludedBy: checked.filter((d) => !has(d)),
  };
}

/**
 * Advice per sending source, from its aligned shares and raw results: a source that passes only one
 * of SPF and DKIM is one forward (SPF breaks) or one key change (DKIM) away from failing DMARC, and
 * one that passes neither aligned is a service not set up for the domain. Sources whose mail nothing
 * authenticated at all are left to the threats and the policy advice.
 */
function sourceAdvice(groups: SourceGroup[], totalMessages: number): string[] {
  const out: string[] = [];
  for (const group of groups.slice(0, EXPLAINED_SOURCES)) {
    if (out.length >= ADVISED_SOURCES) break;
    if (group.count === 0) continue;
    const spf = group.spfAligned / group.count;
    const dkim = group.dkimAligned / group.count;
    // A service sending unaligned mail that fails DMARC is worth naming however small; one that still passes, once it
    // matters.
    const failsMisaligned = group.failed > 0 && group.failedMisaligned * 2 > group.failed;
    if (!failsMisaligned && group.count < totalMessages * ADVICE_MIN_SHARE) continue;
    const fromDomains = [...group.domains].sort().join(', ');
    const label = sourceLabel(group);
    const rates = `${percent(group.spfAligned, group.count)} SPF and ${percent(group.dkimAligned, group.count)} DKIM alignment`;
    if (dkim >= PASSES && spf < NEVER_ALIGNED) {
      out.push(
        `${label} passes DKIM but ${percent(group.spfAligned, group.count)} SPF alignment: ${spfFix(group, fromDomains)}. If it only forwards your mail (a mailing list or forwarding mailbox), DKIM already carries it.`,
      );
    } else if (spf >= PASSES && dkim < NEVER_ALIGNED) {
      out.push(
        `${label} passes SPF but ${percent(group.dkimAligned, group.count)} DKIM alignment: ${dkimFix(group, fromDomains)}. Forwarded mail loses SPF, so without DKIM it then fails DMARC.`,
      );
    } else if (spf < PASSES && dkim < PASSES) {
      // Nothing authenticated its mail at all: spoofing, for the threats and the policy advice, not a sender to set up.
      if (!failsMisaligned && group.failed > 0 && spf === 0 && dkim === 0) continue;
      const fixes = [spf < PASSES && spfFix(group, fromDomains), dkim < PASSES && dkimFix(group, fromDomains)].filter(
        Boolean,
      );
      out.push(
        `${label} has ${rates}${group.failed > 0 ? ` (${group.failed} messages failed DMARC)` : ''}: ${fixes.join('; and ')}.`,
      );
    }
  }
  return out;
}

/** Advice in the order a user should act on it: policy first, then the sources to fix. */
function recommend({ days, byDomain, rows, groups, totalMessages, threats, reporters }: RecommendInput): string[] {
  if (rows.days.length === 0) {
    return [
      `No DMARC reports in the last ${days} days. Check that your DMARC record has a rua= address whose reports reach InboxPulse, or upload reports here.`,
    ];
  }
  const out: string[] = [];
  for (const policy of rows.policies) {
    const name = policy.domain ?? '';
    const totals = byDomain.get(name);
    const compliance = totals ? percentOf(totals.passed, totals.messages, 2) : null;
    if (compliance === null) continue;
    const shown = `${compliance}%`;
    if (policy.p === 'none') {
      out.push(
        compliance > ENFORCE_AT_COMPLIANCE
          ? `${name}: ${shown} of mail passes DMARC. Move the policy from p=none to p=quarantine.`
          : `${name}: only ${shown} of mail passes DMARC. Keep p=none and fix the failing sources below before enforcing a policy.`,
      );
    } else if (policy.p === 'quarantine' || policy.p === 'reject') {
      if (policy.pct !== null && policy.pct < 100)
        out.push(`${name}: p=${policy.p} applies to only ${policy.pct}% of failing mail. Raise pct to 100.`);
      else if (policy.p === 'quarantine' && compliance > ENFORCE_AT_COMPLIANCE)
        out.push(`${name}: ${shown} of mail passes DMARC. Consider p=reject.`);
    }
    if (policy.testing === 'y')
      out.push(
        `${name}: the policy is in test mode (t=y), so receivers do not enforce it. Set t=n when you are ready.`,
      );
  }
  out.push(...sourceAdvice(groups, totalMessages));
  const spoofed = threats
    .filter((t) => t.type === 'spoofing')
    .reduce((sum, t) => sum + t.frequency, rows.otherSources.spoofedMessages);
  const unenforced = rows.policies.filter((p) => p.p === 'none').map((p) => p.domain);
  if (spoofed > 0 && unenforced.length > 0) {
    out.push(
      `${spoofed} unauthenticated messages used ${unenforced.join(', ')}; an enforced policy (p=quarantine or p=reject) tells receivers to stop them.`,
    );
  }
  for (const reporter of reporters.filter((r) => r.stopped)) {
    out.push(
      `${reporter.orgName} has sent no report since ${reporter.lastReportAt.slice(0, 10)}. Check that your rua= address still accepts its reports.`,
    );
  }
  return out;
}

/** Without a domain filter a reporter appears once per domain: one row per reporter, daily if it is for any domain. */
function mergeReporters(activity: ReporterActivity[]): ReporterActivity[] {
  const byOrg = new Map<string, ReporterActivity>();
  for (const a of activity) {
    const seen = byOrg.get(a.orgName);
    if (!seen) byOrg.set(a.orgName, { ...a });
    else {
      seen.reports += a.reports;
      seen.recentDays = Math.max(seen.recentDays, a.recentDays);
      if (a.lastReportAt > seen.lastReportAt) seen.lastReportAt = a.lastReportAt;
    }
  }
  return [...byOrg.values()].sort((a, b) => b.lastReportAt.getTime() - a.lastReportAt.getTime());
}
