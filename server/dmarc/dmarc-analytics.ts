import type { DmarcAnalytics, DmarcReporter, DmarcSource, DmarcThreat } from '@contracts/dmarc';
import type { AnalyticsRows, SourceRow } from './dmarc-analytics.repo';
import type { SourceName } from './source-names';
import { percentOf } from '@contracts/figures';
import { reporterHealth, type ReporterActivity } from './reporter-health';
import { threatSeverity } from './threat-severity';

/*
 * DMARC analytics from aggregated rows (dmarc-analytics.repo.ts). Definitions:
 * - compliance: messages that passed DMARC (aligned DKIM or aligned SPF pass, as the receiver
 *   evaluated it: policy_evaluated) / all messages, in percent, weighted by message count.
 * - a source: an organisation (registrable domain of the PTR name) when reverse DNS names it,
 *   otherwise the single IP.
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

interface SourceGroup extends DmarcSource {
  failedMisaligned: number;
  domains: Set<string>;
  ipCounts: Map<string, number>;
}

export function groupSources(rows: SourceRow[], names: Map<string, SourceName>): SourceGroup[] {
  const groups = new Map<string, SourceGroup>();
  for (const row of rows) {
    const name = names.get(row.sourceIp);
    const key = name?.organisation ? `org:${name.organisation}` : `ip:${row.sourceIp}`;
    let group = groups.get(key);
    if (!group) {
      group = {
        ips: [],
        reverseDns: null,
        organisation: name?.organisation ?? null,
        count: 0,
        spfAligned: 0,
        dkimAligned: 0,
        failed: 0,
        failedMisaligned: 0,
        dispositions: {},
        domains: new Set(),
        ipCounts: new Map(),
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
  }
  return [...groups.values()].sort((a, b) => b.count - a.count);
}

function describeSource(group: SourceGroup): string {
  if (group.organisation) return `${group.organisation} (${group.ips.length === 1 ? group.ips[0] : `${group.ips.length} IPs`})`;
  return group.reverseDns ? `${group.ips[0]} (${group.reverseDns})` : group.ips[0];
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

export function buildAnalytics(days: number, domain: string | null, rows: AnalyticsRows, names: Map<string, SourceName>, now = new Date()): DmarcAnalytics {
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
    recommendations: recommend({ days, byDomain, rows, failing, threats, reporters }),
    sources: groups.slice(0, TOP_SOURCES).map(({ ips, reverseDns, organisation, count, spfAligned, dkimAligned, failed, dispositions }) => ({
      ips,
      reverseDns,
      organisation,
      count,
      spfAligned,
      dkimAligned,
      failed,
      dispositions,
    })),
    reporters,
  };
}

interface RecommendInput {
  days: number;
  byDomain: Map<string, { messages: number; passed: number }>;
  rows: AnalyticsRows;
  failing: SourceGroup[];
  threats: DmarcThreat[];
  reporters: DmarcReporter[];
}

/** Advice in the order a user should act on it: policy first, then the sources to fix. */
function recommend({ days, byDomain, rows, failing, threats, reporters }: RecommendInput): string[] {
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
      if (policy.pct !== null && policy.pct < 100) out.push(`${name}: p=${policy.p} applies to only ${policy.pct}% of failing mail. Raise pct to 100.`);
      else if (policy.p === 'quarantine' && compliance > ENFORCE_AT_COMPLIANCE) out.push(`${name}: ${shown} of mail passes DMARC. Consider p=reject.`);
    }
    if (policy.testing === 'y') out.push(`${name}: the policy is in test mode (t=y), so receivers do not enforce it. Set t=n when you are ready.`);
  }
  for (const group of failing.filter((g) => g.failedMisaligned * 2 > g.failed).slice(0, 3)) {
    const who = group.organisation ?? group.reverseDns ?? group.ips[0];
    const domains = [...group.domains].sort().join(', ');
    out.push(
      `${who}: ${group.failedMisaligned} messages passed SPF or DKIM only for another domain. If you send through this service, have it DKIM-sign with ${domains} or use your domain as its return path.`,
    );
  }
  const spoofed = threats.filter((t) => t.type === 'spoofing').reduce((sum, t) => sum + t.frequency, rows.otherSources.spoofedMessages);
  const unenforced = rows.policies.filter((p) => p.p === 'none').map((p) => p.domain);
  if (spoofed > 0 && unenforced.length > 0) {
    out.push(`${spoofed} unauthenticated messages used ${unenforced.join(', ')}; an enforced policy (p=quarantine or p=reject) tells receivers to stop them.`);
  }
  for (const reporter of reporters.filter((r) => r.stopped)) {
    out.push(`${reporter.orgName} has sent no report since ${reporter.lastReportAt.slice(0, 10)}. Check that your rua= address still accepts its reports.`);
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
