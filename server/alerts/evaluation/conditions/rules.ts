import type { AlertSeverity } from '@contracts/alerts';
import { ALERT_RULE_TYPES, type AlertRuleType } from '@contracts/alert-settings';
import { lastWindow, RULE_WINDOW_MS, usesDailyStatistics, type RuleWindow } from '@contracts/alert-rule-basis';
import type { RuleRow } from '../evaluation.repo';
import { pct, round, type EvaluationData, type Measured } from './shared';
import { sender, testsByDomainSince } from './placements';
import type { MetricKind } from './metric-readings';
import { readDailyStatistics, readEvents } from './rule-readings';

/* The user's own alert rules, each measured on its window and domain. */

const RULE_ALERT_TYPES = {
  inboxRate: 'deliverability_drop',
  deliveryRate: 'deliverability',
  bounceRate: 'bounce',
  complaintRate: 'spam',
  senderScore: 'reputation_decline',
  volumeIncrease: 'suspicious_activity',
  volumeDecrease: 'suspicious_activity',
} as const satisfies Record<AlertRuleType, string>;

/** The delivery figure each rule type watches; the others are judged on inbox tests and sender scores. */
const DELIVERY_KINDS = {
  bounceRate: 'bounce',
  complaintRate: 'complaints',
  deliveryRate: 'delivery',
  volumeIncrease: 'volumeUp',
  volumeDecrease: 'volumeDown',
} as const satisfies Partial<Record<AlertRuleType, MetricKind>>;

/** The event windows a user's rules need: one per window length and domain (null: all). */
export function ruleEventWindows(rules: RuleRow[]): { key: string; window: RuleWindow; domain: string | null }[] {
  const out = new Map<string, { key: string; window: RuleWindow; domain: string | null }>();
  for (const rule of rules) {
    if (!(rule.type in DELIVERY_KINDS)) continue;
    const domain = rule.domain?.toLowerCase() ?? null;
    const key = eventWindowKey(rule.timeWindow, domain);
    out.set(key, { key, window: rule.timeWindow as RuleWindow, domain });
  }
  return [...out.values()];
}

export const eventWindowKey = (window: string, domain: string | null) => `${window}|${domain ?? ''}`;

function ruleSeverity(rule: RuleRow, value: number): AlertSeverity | null {
  const above = ALERT_RULE_TYPES[rule.type as AlertRuleType].direction === 'above';
  const beyond = (threshold: number) => (above ? value > threshold : value < threshold);
  return beyond(rule.criticalThreshold) ? 'critical' : beyond(rule.warningThreshold) ? 'warning' : null;
}

/** One target of a rule measured (a window's delivery figures, a domain's placement, an IP's score). */
interface RuleTarget {
  suffix: string | null;
  value: number;
  subject: string;
  domain: string | null;
  facts: Record<string, unknown>;
}

function ruleTargets(rule: RuleRow, data: EvaluationData): RuleTarget[] {
  const type = rule.type as AlertRuleType;
  const window = rule.timeWindow as RuleWindow;
  const userDomains = new Set(data.domains.map((d) => d.domain));
  // A rule for a domain the user no longer has watches nothing.
  if (rule.domain !== null && !userDomains.has(rule.domain.toLowerCase())) return [];
  const ruleDomain = rule.domain?.toLowerCase() ?? null;
  if (type === 'senderScore') {
    const domains = data.domains
      .filter((d) => d.reputationScore !== null && (ruleDomain === null || d.domain === ruleDomain))
      .map((d) => ({
        suffix: d.domain,
        value: round(d.reputationScore!),
        subject: `the sender score of ${d.domain}`,
        domain: d.domain,
        facts: { domain: d.domain },
      }));
    const ips =
      ruleDomain === null
        ? data.ips
            .filter((ip) => ip.senderScore !== null)
            .map((ip) => ({
              suffix: ip.ipAddress,
              value: round(ip.senderScore!),
              subject: `the sender score of ${ip.ipAddress}`,
              domain: null,
              facts: { ipAddress: ip.ipAddress },
            }))
        : [];
    return [...domains, ...ips];
  }
  if (type === 'inboxRate') {
    const placements = testsByDomainSince(data.tests, new Date(data.now.getTime() - RULE_WINDOW_MS[window]));
    return [...placements]
      .filter(([key]) => ruleDomain === null || key === ruleDomain)
      .map(([key, p]) => ({
        suffix: key,
        value: pct(p.inbox, p.seeds),
        subject: `inbox placement for ${sender(p)} (${p.tests} test${p.tests === 1 ? '' : 's'} completed in ${lastWindow(window)})`,
        domain: p.domain,
        facts: { domain: p.domain ?? 'unknown', inbox: p.inbox, seeds: p.seeds, tests: p.tests },
      }));
  }
  const kind = DELIVERY_KINDS[type as keyof typeof DELIVERY_KINDS];
  const reading =
    readEvents(kind, data.ruleEvents.get(eventWindowKey(rule.timeWindow, ruleDomain)), window, ruleDomain) ??
    (usesDailyStatistics(window, ruleDomain) ? readDailyStatistics(kind, data, window) : null);
  if (!reading) return [];
  return [
    {
      suffix: null,
      value: reading.value,
      subject: `${ALERT_RULE_TYPES[type].label.toLowerCase()} (${reading.words})`,
      domain: ruleDomain,
      facts: reading.facts,
    },
  ];
}

export function ruleConditions(data: EvaluationData): Measured[] {
  const out: Measured[] = [];
  for (const rule of data.rules) {
    const type = rule.type as AlertRuleType;
    if (!(type in ALERT_RULE_TYPES)) continue;
    const { label, unit, direction } = ALERT_RULE_TYPES[type];
    for (const target of ruleTargets(rule, data)) {
      const severity = ruleSeverity(rule, target.value);
      const threshold = severity === 'critical' ? rule.criticalThreshold : rule.warningThreshold;
      const valueText = `${target.value}${unit}`;
      out.push({
        key: target.suffix === null ? `rule:${rule.id}` : `rule:${rule.id}:${target.suffix}`,
        recovered: `${target.subject} is ${valueText}, not ${direction} the rule's ${rule.warningThreshold}${unit}.`,
        alert: severity && {
          type: RULE_ALERT_TYPES[type],
          severity,
          title: `${rule.name}: ${label} ${valueText}`,
          message: `Rule "${rule.name}": ${target.subject} is ${valueText}, ${direction} its ${severity} threshold of ${threshold}${unit}. Open the alert's data to see what changed, then fix the cause or adjust the rule.`,
          domain: target.domain,
          measure: `${label}${target.suffix ? ` for ${target.suffix}` : ''}`,
          unit,
          metadata: {
            ruleId: rule.id,
            ruleName: rule.name,
            value: target.value,
            threshold,
            warningThreshold: rule.warningThreshold,
            criticalThreshold: rule.criticalThreshold,
            window: rule.timeWindow,
            ...target.facts,
          },
        },
      });
    }
  }
  return out;
}
