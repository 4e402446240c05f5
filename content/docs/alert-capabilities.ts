/**
 * The Alert Capabilities page's content (/alert-capabilities). Two kinds of text, kept apart: the
 * spec's marketing claims, kept as written (DESIGN.md: claims that disagree stay where the spec puts
 * them), and what the server does today (ADR 025; contracts/alerts.ts and contracts/alert-settings.ts,
 * which a test checks these lists against). Plain data, no imports.
 */

/** Part 1, section 1, as written. */
export const ALERT_CATEGORIES_CLAIM = 'Alerting in 14 categories (critical, reputation, performance) across several channels.';

/** Part 2, section 6: documented alert access by plan, as written. */
export const ALERT_PLAN_TIERS = [
  {
    plan: 'Starter',
    types: '3 basic alert types',
    notifications: 'Email notifications',
    frequency: 'Daily digest',
    retention: '7-day retention',
    extras: [] as string[],
  },
  {
    plan: 'Professional',
    types: '8 advanced types',
    notifications: 'Email plus dashboard',
    frequency: 'Real-time plus daily digest',
    retention: '30-day retention',
    extras: ['Custom thresholds'],
  },
  {
    plan: 'Enterprise',
    types: 'All 11 types',
    notifications: 'All notification methods including SMS (critical only)',
    frequency: 'Custom intervals',
    retention: '90-day retention',
    extras: ['Full API access'],
  },
] as const;

/** Part 2, section 9: documented alert thresholds, as written. */
export const DOCUMENTED_THRESHOLDS = [
  { metric: 'Delivery rate', threshold: 'below 95%' },
  { metric: 'Bounce rate', threshold: 'above 5%' },
  { metric: 'Spam complaints', threshold: 'above 0.3%' },
  { metric: 'IP reputation score', threshold: 'below 70' },
  { metric: 'Volume anomaly', threshold: '200% increase or 50% decrease' },
  { metric: 'SPF', threshold: 'any failure' },
  { metric: 'Blacklist', threshold: 'any listing' },
] as const;

export interface AlertTypeDoc {
  /** The type as the API and webhooks name it (contracts/alerts.ts ALERT_TYPES). */
  type: string;
  label: string;
  raisedWhen: string;
  /** Whether something raises it today (ADR 025). */
  raisedToday: boolean;
}

/** The server's one list of alert types (ADR 025), in the order of contracts/alerts.ts. */
export const ALERT_TYPE_DOCS: AlertTypeDoc[] = [
  {
    type: 'authentication_failure',
    label: 'Authentication failure',
    raisedWhen: 'SPF, DKIM or DMARC records fail their checks, DMARC reports show failing mail, or a DMARC reporter stops sending reports',
    raisedToday: true,
  },
  { type: 'dns_changes', label: 'DNS changes', raisedWhen: 'a domain’s authentication records change', raisedToday: true },
  {
    type: 'certificate_expiry',
    label: 'Certificate expiry',
    raisedWhen: 'a TLS certificate of your mail hosts is about to expire (needs TLS checks of MX hosts, not built yet)',
    raisedToday: false,
  },
  { type: 'deliverability_drop', label: 'Deliverability drop', raisedWhen: 'inbox placement falls below your inbox threshold', raisedToday: true },
  {
    type: 'provider_blocking',
    label: 'Provider blocking',
    raisedWhen: 'a mailbox provider blocks your mail (needs MTA bounce events, not built yet)',
    raisedToday: false,
  },
  {
    type: 'blacklist_detection',
    label: 'Blacklist detection',
    raisedWhen: 'an IP address or domain is listed on (or delisted from) a blocklist',
    raisedToday: true,
  },
  { type: 'reputation_decline', label: 'Reputation decline', raisedWhen: 'a sender score falls below your reputation threshold', raisedToday: true },
  {
    type: 'suspicious_activity',
    label: 'Suspicious activity',
    raisedWhen: 'sending volume jumps by 200% or drops by 50% against the previous day',
    raisedToday: true,
  },
  { type: 'deliverability', label: 'Deliverability', raisedWhen: 'the delivery rate falls below 95% (critical below 85%)', raisedToday: true },
  { type: 'reputation', label: 'Reputation', raisedWhen: 'kept for the screens that show it; nothing raises it yet', raisedToday: false },
  { type: 'bounce', label: 'Bounce', raisedWhen: 'the bounce rate rises above your bounce threshold', raisedToday: true },
  { type: 'spam', label: 'Spam complaints', raisedWhen: 'the complaint rate rises above your spam threshold', raisedToday: true },
];

/** The channels an alert goes out on (ADR 025). */
export const ALERT_CHANNELS = [
  { channel: 'E-mail', detail: 'Every plan; the per-type e-mail switches of Alert Settings choose which alerts are sent.', plan: 'All plans' },
  { channel: 'Slack', detail: 'To the channel of an incoming webhook URL you save in Alert Settings.', plan: 'Professional' },
  { channel: 'SMS', detail: 'Critical alerts only, to a number you save in Alert Settings.', plan: 'Professional' },
  {
    channel: 'Webhooks',
    detail: 'alert.created and alert.resolved events, signed, within about a minute whatever the frequency.',
    plan: 'Professional',
  },
] as const;

/** contracts/alert-settings.ts ALERT_FREQUENCIES, with when each sends. */
export const ALERT_FREQUENCY_DOCS = [
  { frequency: 'immediate', label: 'Immediate', detail: 'within about a minute of the alert' },
  { frequency: 'hourly', label: 'Hourly', detail: 'a digest at the top of each hour' },
  { frequency: 'daily', label: 'Daily', detail: 'a digest at 08:00' },
  { frequency: 'weekly', label: 'Weekly summary', detail: 'a summary on Monday at 08:00' },
] as const;

/** The Alert Settings thresholds and their defaults (contracts/alert-settings.ts ALERT_SETTING_DEFAULTS). */
export const ALERT_THRESHOLD_DOCS = [
  { setting: 'inboxThreshold', label: 'Inbox placement rate', default: 90, unit: '%', rule: 'alert below it; critical below 50%', range: '0-100' },
  { setting: 'bounceThreshold', label: 'Bounce rate', default: 5, unit: '%', rule: 'alert above it; critical above twice it', range: '0-100' },
  {
    setting: 'spamThreshold',
    label: 'Spam complaint rate',
    default: 0.3,
    unit: '%',
    rule: 'alert above it; critical above twice it',
    range: '0-10, steps of 0.1',
  },
  { setting: 'reputationThreshold', label: 'Sender score', default: 70, unit: '', rule: 'alert below it; critical below 50', range: '0-100' },
] as const;

/** contracts/alert-settings.ts ALERT_RULE_WINDOWS: the windows an alert rule can judge over. */
export const ALERT_RULE_WINDOW_DOCS = ['10m', '1h', '6h', '24h', '7d'] as const;
