import { ALERT_TYPES, type AlertType } from '@contracts/alerts';
import {
  lowestPlanWith,
  PLAN_LABELS,
  PLAN_LIMITS,
  PLAN_NAMES,
  planHasFeature,
  PRICING_PAGE_PLANS,
  type PlanId,
} from '@contracts/plans';

/**
 * The Alert Capabilities page's content (/alert-capabilities). The alert types and what each plan
 * gets are built from the tables the server enforces (contracts/alerts.ts ALERT_TYPES, the plan
 * tables of contracts/plans.ts), so the page cannot promise a type, a plan or a limit the product
 * does not have; the type docs are a record keyed by type, so a type added to the contract fails
 * the type check until it is described here.
 */

export type AlertGroup = 'critical' | 'reputation' | 'performance';
export const ALERT_GROUP_LABELS: Record<AlertGroup, string> = {
  critical: 'Critical',
  reputation: 'Reputation',
  performance: 'Performance',
};
const ALERT_GROUPS = Object.keys(ALERT_GROUP_LABELS) as AlertGroup[];

export interface AlertTypeDoc {
  label: string;
  group: AlertGroup;
  raisedWhen: string;
  /** Whether something raises it today (ADR 025). */
  raisedToday: boolean;
}

const TYPE_DOCS: Record<AlertType, AlertTypeDoc> = {
  authentication_failure: {
    label: 'Authentication failure',
    group: 'critical',
    raisedWhen:
      'SPF, DKIM or DMARC records fail their checks, DMARC reports show failing mail, or a DMARC reporter stops sending reports',
    raisedToday: true,
  },
  dns_changes: {
    label: 'DNS changes',
    group: 'critical',
    raisedWhen: 'a domain’s authentication records change',
    raisedToday: true,
  },
  certificate_expiry: {
    label: 'Certificate expiry',
    group: 'critical',
    raisedWhen:
      'a TLS certificate of your mail hosts is about to expire; nothing checks the MX hosts’ certificates yet, so it is not raised',
    raisedToday: false,
  },
  deliverability_drop: {
    label: 'Deliverability drop',
    group: 'performance',
    raisedWhen: 'inbox placement falls below your inbox threshold',
    raisedToday: true,
  },
  provider_blocking: {
    label: 'Provider blocking',
    group: 'reputation',
    raisedWhen:
      'a mailbox provider blocks your mail; MTA and ESP bounce events are received and sorted into causes (see Bounce causes in the API), but no check raises this type from them yet',
    raisedToday: false,
  },
  blacklist_detection: {
    label: 'Blacklist detection',
    group: 'reputation',
    raisedWhen: 'an IP address or domain is listed on a blocklist',
    raisedToday: true,
  },
  reputation_decline: {
    label: 'Reputation decline',
    group: 'reputation',
    raisedWhen: 'a sender score falls below your reputation threshold',
    raisedToday: true,
  },
  suspicious_activity: {
    label: 'Suspicious activity',
    group: 'critical',
    raisedWhen: 'sending volume jumps by 200% or drops by 50% against the previous day',
    raisedToday: true,
  },
  deliverability: {
    label: 'Deliverability',
    group: 'performance',
    raisedWhen: 'the delivery rate falls below 95% (critical below 85%)',
    raisedToday: true,
  },
  reputation: {
    label: 'Reputation',
    group: 'reputation',
    raisedWhen: 'kept for the screens that show it; nothing raises it yet',
    raisedToday: false,
  },
  bounce: {
    label: 'Bounce',
    group: 'performance',
    raisedWhen: 'the bounce rate rises above your bounce threshold',
    raisedToday: true,
  },
  spam: {
    label: 'Spam complaints',
    group: 'reputation',
    raisedWhen: 'the complaint rate rises above your spam threshold',
    raisedToday: true,
  },
  compliance: {
    label: 'Compliance',
    group: 'critical',
    raisedWhen:
      'a domain stops meeting one of Gmail’s, Yahoo’s, Microsoft’s or Apple’s published sender rules, as its compliance scorecard judges it',
    raisedToday: true,
  },
};

/** Every alert type the server has, once each, in the order of contracts/alerts.ts. */
export const ALERT_TYPE_DOCS: (AlertTypeDoc & { type: AlertType })[] = ALERT_TYPES.map((type) => ({
  type,
  ...TYPE_DOCS[type],
}));

/** The page's opening line, counted from the tables. */
export const ALERT_CAPABILITIES_INTRO = `Alerting in ${ALERT_TYPES.length} alert types, in ${ALERT_GROUPS.length} groups (${ALERT_GROUPS.join(', ')}), by e-mail, Slack, SMS and webhooks.`;

export interface AlertPlanTier {
  plan: PlanId;
  name: string;
  lines: string[];
}

/**
 * What each plan the pricing page offers gets of alerts, from the plan tables: every type and every
 * frequency on all plans, the Slack, SMS and webhook channels with advanced_alerting, the API with
 * api_access, read alerts kept as long as the plan keeps data.
 */
export const ALERT_PLAN_TIERS: AlertPlanTier[] = PRICING_PAGE_PLANS.map((plan) => {
  const days = PLAN_LIMITS[plan].retentionDays;
  return {
    plan,
    name: PLAN_LABELS[plan],
    lines: [
      `All ${ALERT_TYPES.length} alert types`,
      planHasFeature(plan, 'advanced_alerting')
        ? 'E-mail, the Alerts page, Slack, SMS (critical only) and webhooks'
        : 'E-mail and the Alerts page (no Slack, SMS or webhooks)',
      'Immediately, or as an hourly, daily or weekly digest',
      'Alert rules with your own warning and critical thresholds',
      days === null ? 'Read alerts kept without a time limit' : `Read alerts kept ${days} days`,
      planHasFeature(plan, 'api_access') ? 'Alerts and rules through the REST API' : 'No REST API access',
    ],
  };
});

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

/** The channels an alert goes out on (ADR 025). */
const ADVANCED_ALERTING_PLAN = PLAN_NAMES[lowestPlanWith('advanced_alerting')];
export const ALERT_CHANNELS = [
  {
    channel: 'E-mail',
    detail: 'Every plan; the per-type e-mail switches of Alert Settings choose which alerts are sent.',
    plan: 'All plans',
  },
  {
    channel: 'Slack',
    detail: 'To the channel of a Slack incoming webhook URL you save in Alert Settings.',
    plan: ADVANCED_ALERTING_PLAN,
  },
  {
    channel: 'SMS',
    detail:
      'Critical alerts only, to a number you save and verify with a texted code in Alert Settings: the alert type, domain and a link, at most 20 texts a day.',
    plan: ADVANCED_ALERTING_PLAN,
  },
  {
    channel: 'Webhooks',
    detail: 'alert.created and alert.resolved events, signed, within about a minute whatever the frequency.',
    plan: ADVANCED_ALERTING_PLAN,
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
  {
    setting: 'inboxThreshold',
    label: 'Inbox placement rate',
    default: 90,
    unit: '%',
    rule: 'alert below it; critical below 50%',
    range: '0-100',
  },
  {
    setting: 'bounceThreshold',
    label: 'Bounce rate',
    default: 5,
    unit: '%',
    rule: 'alert above it; critical above twice it',
    range: '0-100',
  },
  {
    setting: 'spamThreshold',
    label: 'Spam complaint rate',
    default: 0.3,
    unit: '%',
    rule: 'alert above it; critical above twice it',
    range: '0-10, steps of 0.1',
  },
  {
    setting: 'reputationThreshold',
    label: 'Sender score',
    default: 70,
    unit: '',
    rule: 'alert below it; critical below 50',
    range: '0-100',
  },
] as const;

/** contracts/alert-settings.ts ALERT_RULE_WINDOWS: the windows an alert rule can judge over. */
export const ALERT_RULE_WINDOW_DOCS = ['10m', '1h', '6h', '24h', '7d'] as const;
