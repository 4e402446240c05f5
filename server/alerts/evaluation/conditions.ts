import type { AlertSeverity } from '@contracts/alerts';
import type { DayVolumes } from '@contracts/figures';
import { addDays } from '@contracts/utc-day';
import { ALERT_RULE_TYPES, type AlertRuleType } from '@contracts/alert-settings';
import type { ConditionAlert } from '../alert-conditions';
import { lastWindow, RULE_WINDOW_MS, usesDailyStatistics, type RuleWindow } from '@contracts/alert-rule-basis';
import type {
  DmarcDomainTotals,
  DomainFacts,
  EventWindows,
  GmailSpamDay,
  RuleRow,
  TestRow,
  ThresholdSettings,
} from './evaluation.repo';

/*
 * Every condition the evaluation watches, computed from one user's data without touching the
 * database. Numbers that decide an alert live here (docs/decisions/025).
 */

/** Inbox placement below this share is critical whatever the user's threshold. */
export const INBOX_CRITICAL = 50;
/** Delivery rate (delivered / sent): below 95% warning, below 85% critical. */
export const DELIVERY_WARNING = 95;
export const DELIVERY_CRITICAL = 85;
/** Volume against the previous window of the same length: +200% or more, or -50% or less. */
export const VOLUME_UP = 200;
export const VOLUME_DOWN = -50;
/** Sender score below this is critical whatever the user's threshold. */
export const SCORE_CRITICAL = 50;
/** Share of messages failing DMARC over the last 7 days: above 5% warning, above 20% critical. */
export const DMARC_FAIL_WARNING = 5;
export const DMARC_FAIL_CRITICAL = 20;
/** Rates are judged only on this many messages sent in the window (DMARC: counted in reports). */
export const MIN_MESSAGES = 100;
/** How far back an inbox test still counts, and DMARC reports. */
export const INBOX_TEST_DAYS = 30;
export const DMARC_DAYS = 7;
/**
 * Gmail's user-reported spam rate (Postmaster Tools): Google asks bulk senders to stay below 0.1 %
 * and never reach 0.3 % (its sender guidelines); at 0.3 % it stops mitigating delivery problems.
 */
export const GMAIL_SPAM_WARNING = 0.1;
export const GMAIL_SPAM_CRITICAL = 0.3;
/** A Postmaster Tools day older than this no longer counts (Google publishes a day late, sometimes two). */
export const GMAIL_SPAM_DAYS = 4;

/** A condition, measured: `alert` when it holds; otherwise what the data says instead ("Recovered: …"). */
export interface Measured {
  key: string;
  alert: Omit<ConditionAlert, 'userId' | 'conditionKey'> | null;
  recovered: string;
}

export interface EvaluationData {
  now: Date;
  today: string;
  settings: ThresholdSettings;
  rules: RuleRow[];
  tests: TestRow[];
  metrics: DayVolumes[];
  ips: { ipAddress: string; senderScore: number | null }[];
  domains: DomainFacts[];
  dmarc: DmarcDomainTotals[];
  gmailSpam: GmailSpamDay[];
  /** The delivery events of the rules' windows, by eventWindowKey. */
  ruleEvents: Map<string, EventWindows>;
}

/** The namespaces of keys the evaluation owns: an open alert under one of them that nothing measured is resolved. */
export const EVALUATED_PREFIXES = [
  'inbox:',
  'metrics:',
  'score:',
  'auth-records:',
  'dmarc-failures:',
  'rule:',
  'gmail-spam:',
] as const;

const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;
const pct = (part: number, whole: number, digits = 1) => round((part / whole) * 100, digits);
const count = (n: number) => Math.round(n).toLocaleString('en-US');
/** Account-wide inbox results (a test whose From domain is unknown) are keyed "account". */
const ACCOUNT = 'account';

/** Every condition of the user's data. */
export function measureAll(data: EvaluationData): Measured[] {
  return [
    ...inboxConditions(data),
    ...metricConditions(data),
    ...scoreConditions(data),
    ...authRecordConditions(data),
    ...dmarcConditions(data),
    ...ruleConditions(data),
    ...gmailSpamConditions(data),
  ];
}

// ---------------------------------------------------------------------------------------------
// Gmail's spam rate (Google Postmaster Tools)

function gmailSpamConditions({ gmailSpam }: EvaluationData): Measured[] {
  return gmailSpam.map((day) => {
    const value = round(day.spamRatio * 100, 2);
    const severity: AlertSeverity | null =
      value >= GMAIL_SPAM_CRITICAL ? 'critical' : value >= GMAIL_SPAM_WARNING ? 'warning' : null;
    return {
      key: `gmail-spam:${day.domain}`,
      recovered: `Gmail's spam rate for ${day.domain} was ${value}% on ${day.date} (Google asks for under ${GMAIL_SPAM_WARNING}%).`,
      alert: severity && {
        type: 'spam',
        severity,
        title: `Gmail spam rate of ${day.domain} is ${value}%`,
        message:
          `Gmail users reported ${value}% of ${day.domain}'s mail as spam on ${day.date} (Google Postmaster Tools). ` +
          `Google asks bulk senders to stay under ${GMAIL_SPAM_WARNING}% and never reach ${GMAIL_SPAM_CRITICAL}%, where Gmail starts refusing or filtering their mail. ` +
          'Send only to people who asked for it, make unsubscribing one click (List-Unsubscribe), and stop mailing addresses that have not opened in months.',
        domain: day.domain,
        measure: `Gmail spam rate of ${day.domain}`,
        unit: '%',
        metadata: {
          value,
          date: day.date,
          warning: GMAIL_SPAM_WARNING,
          critical: GMAIL_SPAM_CRITICAL,
          source: 'Google Postmaster Tools',
        },
      },
    };
  });
}

// ---------------------------------------------------------------------------------------------
// Inbox placement

interface Placement {
  domain: string | null;
  inbox: number;
  seeds: number;
  tests: number;
  testId: number;
  completedAt: Date;
}

/** The latest test of each From domain (tests are newest first). */
function latestTestByDomain(tests: TestRow[]): Map<string, Placement> {
  const out = new Map<string, Placement>();
  for (const t of tests) {
    const key = t.domain ?? ACCOUNT;
    if (t.totalSeeds <= 0 || out.has(key)) continue;
    out.set(key, {
      domain: t.domain,
      inbox: t.inboxCount,
      seeds: t.totalSeeds,
      tests: 1,
      testId: t.id,
      completedAt: t.completedAt,
    });
  }
  return out;
}

/** The tests of each From domain since `since`, added up (testId and completedAt of the latest). */
function testsByDomainSince(tests: TestRow[], since: Date): Map<string, Placement> {
  const out = new Map<string, Placement>();
  for (const t of tests) {
    if (t.totalSeeds <= 0 || t.completedAt < since) continue;
    const key = t.domain ?? ACCOUNT;
    const p = out.get(key) ?? {
      domain: t.domain,
      inbox: 0,
      seeds: 0,
      tests: 0,
      testId: t.id,
      completedAt: t.completedAt,
    };
    p.inbox += t.inboxCount;
    p.seeds += t.totalSeeds;
    p.tests++;
    out.set(key, p);
  }
  return out;
}

const sender = (p: Placement) => (p.domain ? p.domain : 'your account (From domain unknown)');

function inboxConditions({ tests, settings }: EvaluationData): Measured[] {
  const threshold = settings.inboxThreshold;
  return [...latestTestByDomain(tests)].map(([key, p]) => {
    const value = pct(p.inbox, p.seeds);
    const measure = `Inbox placement for ${sender(p)}`;
    const severity: AlertSeverity | null = value < INBOX_CRITICAL ? 'critical' : value < threshold ? 'warning' : null;
    return {
      key: `inbox:${key}`,
      recovered: `${measure} is ${value}% in the latest test (threshold ${threshold}%).`,
      alert: severity && {
        type: 'deliverability_drop',
        severity,
        title: `Inbox placement for ${sender(p)} fell to ${value}%`,
        message:
          `The latest inbox test from ${sender(p)} reached the inbox at ${p.inbox} of ${p.seeds} seed mailboxes (${value}%, threshold ${threshold}%). ` +
          `Open the test's report to fix the authentication, content or blocklist issues it found, then run another test.`,
        domain: p.domain,
        measure,
        unit: '%',
        metadata: {
          value,
          threshold,
          domain: p.domain ?? 'unknown',
          inbox: p.inbox,
          seeds: p.seeds,
          testId: p.testId,
          completedAt: p.completedAt.toISOString(),
        },
      },
    };
  });
}

// ---------------------------------------------------------------------------------------------
// Email metrics

interface Window {
  days: number;
  from: string;
  to: string;
  sent: number;
  delivered: number;
  bounced: number;
  complaints: number;
}

function sumWindow(metrics: DayVolumes[], to: string, days: number): Window {
  const from = addDays(to, -(days - 1));
  const w: Window = { days, from, to, sent: 0, delivered: 0, bounced: 0, complaints: 0 };
  for (const m of metrics) {
    if (m.date < from || m.date > to) continue;
    w.sent += m.sent;
    w.delivered += m.delivered;
    w.bounced += m.bounced;
    w.complaints += m.complaints;
  }
  return w;
}

/**
 * The day rates are judged on: the latest UTC day with figures among today and yesterday; none
 * when neither has any (figures stopped coming: nothing is judged).
 */
export function metricsAnchor(metrics: DayVolumes[], today: string): string | null {
  const days = new Set(metrics.map((m) => m.date));
  if (days.has(today)) return today;
  const yesterday = addDays(today, -1);
  return days.has(yesterday) ? yesterday : null;
}

/**
 * Volume compares whole days: today's figures are a day still going (an integration syncing every
 * hour would make every morning a "drop"), so its window ends yesterday.
 */
const volumeEnd = (today: string) => addDays(today, -1);

const windowWords = (w: { days: number; from: string; to: string }) =>
  w.days === 1 ? `on ${w.to} (UTC)` : `from ${w.from} to ${w.to} (UTC)`;

/** A rate or change and the figures behind it, or why it cannot be judged. */
interface Reading {
  value: number;
  facts: Record<string, number | string>;
  words: string;
}

type MetricKind = 'bounce' | 'complaints' | 'delivery' | 'volumeUp' | 'volumeDown';

function readMetric(
  kind: MetricKind,
  metrics: DayVolumes[],
  anchor: string,
  today: string,
  days: number,
): Reading | null {
  if (kind === 'volumeUp' || kind === 'volumeDown') {
    const now = sumWindow(metrics, volumeEnd(today), days);
    const before = sumWindow(metrics, addDays(now.from, -1), days);
    if (before.sent < MIN_MESSAGES) return null;
    const change = pct(now.sent - before.sent, before.sent);
    const facts = {
      sent: now.sent,
      previousSent: before.sent,
      period: windowWords(now),
      previousPeriod: windowWords(before),
    };
    const words = `${count(now.sent)} messages sent ${windowWords(now)} against ${count(before.sent)} ${windowWords(before)}`;
    return { value: kind === 'volumeUp' ? change : round(-change), facts, words };
  }
  const w = sumWindow(metrics, anchor, days);
  if (w.sent < MIN_MESSAGES) return null;
  const base = { sent: w.sent, period: windowWords(w) };
  if (kind === 'bounce')
    return {
      value: pct(w.bounced, w.sent, 2),
      facts: { ...base, bounced: w.bounced },
      words: `${count(w.bounced)} of ${count(w.sent)} messages bounced ${windowWords(w)}`,
    };
  if (kind === 'delivery')
    return {
      value: pct(w.delivered, w.sent),
      facts: { ...base, delivered: w.delivered },
      words: `${count(w.delivered)} of ${count(w.sent)} messages were delivered ${windowWords(w)}`,
    };
  // Complaints over delivered mail, as Google Postmaster Tools computes the spam rate.
  if (w.delivered <= 0) return null;
  return {
    value: pct(w.complaints, w.delivered, 2),
    facts: { ...base, delivered: w.delivered, complaints: w.complaints },
    words: `${count(w.complaints)} spam complaints for ${count(w.delivered)} delivered messages ${windowWords(w)}`,
  };
}

function metricConditions({ metrics, today, settings }: EvaluationData): Measured[] {
  const anchor = metricsAnchor(metrics, today);
  if (!anchor) return [];
  const out: Measured[] = [];
  const bounce = readMetric('bounce', metrics, anchor, today, 1);
  if (bounce) {
    const t = settings.bounceThreshold;
    const severity = bounce.value > 2 * t ? 'critical' : bounce.value > t ? 'warning' : null;
    out.push({
      key: 'metrics:bounce',
      recovered: `the bounce rate is ${bounce.value}% (threshold ${t}%).`,
      alert: severity && {
        type: 'bounce',
        severity,
        title: `Bounce rate ${bounce.value}%`,
        message: `${bounce.words}: a bounce rate of ${bounce.value}%, above your ${t}% threshold. Remove invalid and inactive addresses and check where the list came from.`,
        measure: 'Bounce rate',
        unit: '%',
        metadata: { value: bounce.value, threshold: t, critical: 2 * t, ...bounce.facts, window: '1 day' },
      },
    });
  }
  const spam = readMetric('complaints', metrics, anchor, today, 1);
  if (spam) {
    const t = settings.spamThreshold;
    const severity = spam.value > 2 * t ? 'critical' : spam.value > t ? 'warning' : null;
    out.push({
      key: 'metrics:complaints',
      recovered: `the spam complaint rate is ${spam.value}% (threshold ${t}%).`,
      alert: severity && {
        type: 'spam',
        severity,
        title: `Spam complaint rate ${spam.value}%`,
        message: `${spam.words}: ${spam.value}%, above your ${t}% threshold. Mail only people who asked for it, make unsubscribing one click, and slow down sends to unengaged recipients.`,
        measure: 'Spam complaint rate',
        unit: '%',
        metadata: { value: spam.value, threshold: t, critical: round(2 * t, 2), ...spam.facts, window: '1 day' },
      },
    });
  }
  const delivery = readMetric('delivery', metrics, anchor, today, 1);
  if (delivery) {
    const severity =
      delivery.value < DELIVERY_CRITICAL ? 'critical' : delivery.value < DELIVERY_WARNING ? 'warning' : null;
    out.push({
      key: 'metrics:delivery',
      recovered: `the delivery rate is ${delivery.value}% (threshold ${DELIVERY_WARNING}%).`,
      alert: severity && {
        type: 'deliverability',
        severity,
        title: `Delivery rate ${delivery.value}%`,
        message: `${delivery.words}: ${delivery.value}%, below ${DELIVERY_WARNING}%. Look at the bounce reasons in your provider: blocks point to reputation or authentication, unknown users to the list.`,
        measure: 'Delivery rate',
        unit: '%',
        metadata: {
          value: delivery.value,
          threshold: DELIVERY_WARNING,
          critical: DELIVERY_CRITICAL,
          ...delivery.facts,
          window: '1 day',
        },
      },
    });
  }
  const volume = readMetric('volumeUp', metrics, anchor, today, 1);
  if (volume) {
    const up = volume.value >= VOLUME_UP;
    const down = volume.value <= VOLUME_DOWN;
    const change = `${volume.value > 0 ? '+' : ''}${volume.value}%`;
    out.push({
      key: 'metrics:volume',
      recovered: `sending volume changed ${change} against the day before, within ${VOLUME_DOWN}% to +${VOLUME_UP}%.`,
      alert:
        up || down
          ? {
              type: 'suspicious_activity',
              severity: 'warning',
              title: `Sending volume ${up ? 'up' : 'down'} ${Math.abs(volume.value)}%`,
              message: up
                ? `${volume.words} (${change}). If you did not plan this, check for a compromised account or API key; a sudden rise also hurts reputation, so ramp up gradually.`
                : `${volume.words} (${change}). Check that your sending and its integration still work.`,
              measure: 'Sending volume change',
              unit: '%',
              metadata: {
                value: volume.value,
                threshold: up ? VOLUME_UP : VOLUME_DOWN,
                ...volume.facts,
                window: '1 day',
              },
            }
          : null,
    });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Sender score

function scoreMeasured(
  key: string,
  what: string,
  score: number,
  threshold: number,
  domain: string | null,
  extra: Record<string, unknown>,
): Measured {
  const value = round(score);
  const severity: AlertSeverity | null = value < SCORE_CRITICAL ? 'critical' : value < threshold ? 'warning' : null;
  return {
    key,
    recovered: `the sender score of ${what} is ${value} (threshold ${threshold}).`,
    alert: severity && {
      type: 'reputation_decline',
      severity,
      title: `Sender score of ${what} is ${value}`,
      message: `The sender score of ${what} is ${value}, below your threshold of ${threshold}. Open its reputation to see what costs points (listings, reverse DNS, DMARC failures, spam placement) and fix those first.`,
      domain,
      measure: `Sender score of ${what}`,
      metadata: { value, threshold, critical: SCORE_CRITICAL, ...extra },
    },
  };
}

function scoreConditions({ ips, domains, settings }: EvaluationData): Measured[] {
  const t = settings.reputationThreshold;
  return [
    ...ips
      .filter((ip) => ip.senderScore !== null)
      .map((ip) =>
        scoreMeasured(`score:ip:${ip.ipAddress}`, ip.ipAddress, ip.senderScore!, t, null, { ipAddress: ip.ipAddress }),
      ),
    ...domains
      .filter((d) => d.reputationScore !== null)
      .map((d) =>
        scoreMeasured(`score:domain:${d.domain}`, d.domain, d.reputationScore!, t, d.domain, { domain: d.domain }),
      ),
  ];
}

// ---------------------------------------------------------------------------------------------
// SPF, DKIM and DMARC records

/** What is wrong, one sentence per failing part, from the checks' own findings (as the domain page says it). */
function problems(d: DomainFacts): string[] {
  const sentences: string[] = [];
  if (d.checks && !d.checks.resolves)
    sentences.push('The domain does not resolve: it has no A, AAAA, MX or SPF record.');
  for (const [label, status, check] of [
    ['SPF', d.spfStatus, d.checks?.spf],
    ['DKIM', d.dkimStatus, d.checks?.dkim],
    ['DMARC', d.dmarcStatus, d.checks?.dmarc],
  ] as const) {
    if (status === 'valid') continue;
    const finding = check?.findings.find((f) => f.severity === 'error');
    sentences.push(
      finding?.message ?? (status === 'missing' ? `No ${label} record was found.` : `The ${label} record is invalid.`),
    );
  }
  return sentences;
}

function authRecordConditions({ domains }: EvaluationData): Measured[] {
  return domains
    .filter((d) => d.lastCheckedAt !== null && d.status !== 'pending')
    .map((d) => {
      const failing = [
        ...(d.checks && !d.checks.resolves ? ['does not resolve'] : []),
        ...(['SPF', 'DKIM', 'DMARC'] as const)
          .map(
            (label) =>
              [label, label === 'SPF' ? d.spfStatus : label === 'DKIM' ? d.dkimStatus : d.dmarcStatus] as const,
          )
          .filter(([, status]) => status !== 'valid')
          .map(([label, status]) => `${label} ${status ?? 'not checked'}`),
      ];
      // The domain status rule (ADR 007): error when it does not resolve or SPF or DMARC is missing, warning for the
      // rest.
      const severity: AlertSeverity | null = d.status === 'error' ? 'error' : d.status === 'warning' ? 'warning' : null;
      return {
        key: `auth-records:${d.domain}`,
        recovered: `SPF, DKIM and DMARC of ${d.domain} are all valid.`,
        alert: severity && {
          type: 'authentication_failure',
          severity,
          title:
            severity === 'error'
              ? `${d.domain} fails its authentication checks`
              : `${d.domain} has authentication issues`,
          message: `${problems(d).join(' ')} Open the domain to see how to fix each record.`,
          domain: d.domain,
          measure: `Authentication of ${d.domain}`,
          metadata: {
            value: failing.join(', '),
            domain: d.domain,
            status: d.status,
            spf: d.spfStatus,
            dkim: d.dkimStatus,
            dmarc: d.dmarcStatus,
          },
        },
      };
    });
}

// ---------------------------------------------------------------------------------------------
// DMARC reports

function dmarcConditions({ dmarc }: EvaluationData): Measured[] {
  return dmarc
    .filter((d) => d.total >= MIN_MESSAGES)
    .map((d) => {
      const value = pct(d.failed, d.total);
      const severity: AlertSeverity | null =
        value > DMARC_FAIL_CRITICAL ? 'critical' : value > DMARC_FAIL_WARNING ? 'warning' : null;
      const top = d.topSources[0];
      return {
        key: `dmarc-failures:${d.domain}`,
        recovered: `${value}% of the messages DMARC reports counted for ${d.domain} in the last ${DMARC_DAYS} days failed DMARC (threshold ${DMARC_FAIL_WARNING}%).`,
        alert: severity && {
          type: 'authentication_failure',
          severity,
          title: `${value}% of mail as ${d.domain} fails DMARC`,
          message:
            `DMARC reports of the last ${DMARC_DAYS} days counted ${count(d.failed)} of ${count(d.total)} messages as ${d.domain} failing DMARC (${value}%, threshold ${DMARC_FAIL_WARNING}%)` +
            `${top ? `; the top failing source is ${top.ip} (${count(top.count)})` : ''}. ` +
            `Add your legitimate senders to SPF and sign their mail with DKIM for ${d.domain}; block the rest with p=quarantine or p=reject.`,
          domain: d.domain,
          measure: `DMARC failures for ${d.domain}`,
          unit: '%',
          metadata: {
            value,
            threshold: DMARC_FAIL_WARNING,
            critical: DMARC_FAIL_CRITICAL,
            window: `${DMARC_DAYS}d`,
            domain: d.domain,
            messages: d.total,
            failed: d.failed,
            topFailingSources: d.topSources,
          },
        },
      };
    });
}

// ---------------------------------------------------------------------------------------------
// The user's alert rules

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

/** A delivery figure of the rule's own window, from the events' own times; null when too few messages came. */
function readEvents(
  kind: MetricKind,
  events: EventWindows | undefined,
  window: RuleWindow,
  domain: string | null,
): Reading | null {
  if (!events) return null;
  const { current: now, previous: before } = events;
  const period = lastWindow(window);
  const from = domain ? ` sent from ${domain}` : '';
  const source = ', from your MTA and ESP events';
  const base = { basis: 'MTA and ESP events', period, ...(domain ? { domain } : {}) };
  if (kind === 'volumeUp' || kind === 'volumeDown') {
    if (before.sent < MIN_MESSAGES) return null;
    const change = pct(now.sent - before.sent, before.sent);
    return {
      value: kind === 'volumeUp' ? change : round(-change),
      facts: { ...base, sent: now.sent, previousSent: before.sent },
      words: `${count(now.sent)} messages${from} in ${period} against ${count(before.sent)} in the ${period.slice('the last '.length)} before${source}`,
    };
  }
  if (now.sent < MIN_MESSAGES) return null;
  const facts = { ...base, sent: now.sent };
  if (kind === 'bounce')
    return {
      value: pct(now.bounced, now.sent, 2),
      facts: { ...facts, bounced: now.bounced },
      words: `${count(now.bounced)} of ${count(now.sent)} messages${from} bounced in ${period}${source}`,
    };
  if (kind === 'delivery')
    return {
      value: pct(now.delivered, now.sent),
      facts: { ...facts, delivered: now.delivered },
      words: `${count(now.delivered)} of ${count(now.sent)} messages${from} were delivered in ${period}${source}`,
    };
  // Complaints over delivered mail, as Google Postmaster Tools computes the spam rate.
  if (now.delivered <= 0) return null;
  return {
    value: pct(now.complaints, now.delivered, 2),
    facts: { ...facts, delivered: now.delivered, complaints: now.complaints },
    words: `${count(now.complaints)} spam complaints for ${count(now.delivered)} delivered messages${from} in ${period}${source}`,
  };
}

/**
 * An account-wide rule of a day or more whose window held too few events: the daily figures, which
 * hold what ESPs report only per day (ADR 040). 24 hours is the latest UTC day with figures.
 */
function readDailyStatistics(kind: MetricKind, data: EvaluationData, window: RuleWindow): Reading | null {
  const anchor = metricsAnchor(data.metrics, data.today);
  if (!anchor) return null;
  const reading = readMetric(kind, data.metrics, anchor, data.today, window === '7d' ? 7 : 1);
  if (!reading) return null;
  return {
    ...reading,
    facts: { ...reading.facts, basis: 'daily figures' },
    words: `${reading.words}, from your daily figures, which include the statistics imported per day from your ESPs`,
  };
}

function ruleConditions(data: EvaluationData): Measured[] {
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
