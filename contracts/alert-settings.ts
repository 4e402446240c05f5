import { z } from 'zod';
import { IdParams, text } from './input';

/*
 * Alert Settings and alert rules (part 2: the Alerts page's settings form, section 3's alert rule,
 * section 9's form defaults and documented thresholds). The server persists and validates them; the
 * Slack, SMS and webhook channels need the advanced_alerting feature.
 */

export const ALERT_FREQUENCIES = ['immediate', 'hourly', 'daily', 'weekly'] as const;
export const AlertFrequency = z.enum(ALERT_FREQUENCIES, {
  error: `frequency must be one of ${ALERT_FREQUENCIES.join(', ')}`,
});
export type AlertFrequency = z.infer<typeof AlertFrequency>;

/** Part 2 section 9: inbox 90, bounce 5, spam 0.3, reputation 70, immediate. */
export const ALERT_SETTING_DEFAULTS = {
  emailDeliverability: true,
  emailReputation: true,
  emailBounce: true,
  emailSpam: true,
  inboxThreshold: 90,
  bounceThreshold: 5,
  spamThreshold: 0.3,
  reputationThreshold: 70,
  frequency: 'immediate',
} as const;

/** E.164: a plus, a country code and at most 15 digits in all (what Twilio's To and From take). */
export const E164 = /^\+[1-9]\d{7,14}$/;

const percent = (label: string) =>
  z
    .number({ error: `${label} must be a number` })
    .min(0, `${label} must be between 0 and 100`)
    .max(100, `${label} must be between 0 and 100`);

const httpsUrl = (label: string) =>
  text(label, 2000, { trim: true }).refine((value) => {
    try {
      return new URL(value).protocol === 'https:';
    } catch {
      return false;
    }
  }, `${label} must be an https:// URL`);

/**
 * Slack's incoming webhook URLs are https://hooks.slack.com/services/T…/B…/… (GovSlack's are on
 * hooks.slack-gov.com): https://api.slack.com/messaging/webhooks. Nothing else takes Block Kit
 * messages at that path, and any other host would receive the alerts (ADR 041).
 */
const SLACK_WEBHOOK_HOSTS = new Set(['hooks.slack.com', 'hooks.slack-gov.com']);
const slackWebhookUrl = text('slackWebhookUrl', 2000, { trim: true }).refine((value) => {
  try {
    const url = new URL(value);
    return (
      url.protocol === 'https:' &&
      SLACK_WEBHOOK_HOSTS.has(url.hostname) &&
      /^\/services\/[^/]+\/[^/]+\/[^/]+/.test(url.pathname)
    );
  } catch {
    return false;
  }
}, 'slackWebhookUrl must be a Slack incoming webhook URL such as https://hooks.slack.com/services/T000/B000/XXXX');

/** POST /api/alert-settings/sms-code/verify: the code texted to the saved number. */
export const SmsCodeBody = z
  .object({
    code: z
      .string({ error: 'code must be the 6 digits of the text' })
      .trim()
      .regex(/^\d{6}$/, 'code must be the 6 digits of the text'),
  })
  .strict();
export type SmsCodeBody = z.infer<typeof SmsCodeBody>;

/** Minutes a texted code stays good, and wrong tries it takes before a new one is needed. */
export const SMS_CODE_MINUTES = 10;
export const SMS_CODE_TRIES = 5;

export const SMS_VERIFICATION_MESSAGES = {
  noNumber: 'Save an SMS number first: the code is texted to the saved number',
  alreadyVerified: 'This number is already verified',
  sent: (number: string) =>
    `A 6-digit code was texted to ${number}. Enter it here within ${SMS_CODE_MINUTES} minutes to verify the number.`,
  expired: 'This code has expired or was tried too often: text yourself a new one',
  wrong: 'That code is not the one we texted: check the text and try again',
  notVerified: 'The SMS number is not verified: no alert is texted to it until its code is entered in Alert Settings',
} as const;

/** Said on the settings screen and by the server when SMS is asked for on a server without Twilio's credentials. */
export const SMS_UNAVAILABLE =
  'SMS alerts are not available: this server has no SMS provider (Twilio) set up. Ask its administrator to configure one.';

/** "HH:MM", 24-hour clock. */
const clock = (label: string) =>
  z
    .string({ error: `${label} must be a time like 22:00` })
    .regex(/^([01]\d|2[0-3]):[0-5]\d$/, `${label} must be a time like 22:00`);

export const QuietHours = z.object({
  start: clock('quietHours.start'),
  end: clock('quietHours.end'),
  /** An IANA time zone, e.g. Europe/Paris. */
  timeZone: text('quietHours.timeZone', 64).refine((zone) => {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: zone });
      return true;
    } catch {
      return false;
    }
  }, 'quietHours.timeZone must be a time zone such as Europe/Paris'),
});
export type QuietHours = z.infer<typeof QuietHours>;

/** GET /api/alert-settings (defaults until saved). Secrets are never returned: the Slack webhook URL shows as a preview. */
export const AlertSettings = z.object({
  emailDeliverability: z.boolean(),
  emailReputation: z.boolean(),
  emailBounce: z.boolean(),
  emailSpam: z.boolean(),
  inboxThreshold: z.number(),
  bounceThreshold: z.number(),
  spamThreshold: z.number(),
  reputationThreshold: z.number(),
  slackEnabled: z.boolean(),
  /** e.g. "https://hooks.slack.com/services/T000…"; null when none is saved. */
  slackWebhookPreview: z.string().nullable(),
  slackChannel: z.string().nullable(),
  smsEnabled: z.boolean(),
  smsNumber: z.string().nullable(),
  /** Whether the owner confirmed smsNumber with a texted code: no alert is texted to a number until then. */
  smsVerified: z.boolean().optional(),
  /** Whether this server can send SMS at all (Twilio's credentials are set): SMS_UNAVAILABLE when not. */
  smsAvailable: z.boolean().optional(),
  webhookEnabled: z.boolean(),
  webhookUrl: z.string().nullable(),
  frequency: AlertFrequency,
  quietHours: QuietHours.nullable(),
  updatedAt: z.string().nullable(),
});
export type AlertSettings = z.infer<typeof AlertSettings>;

/** What a user has until their first save: the spec's form defaults, every paid channel off, no quiet hours. */
export const UNSAVED_ALERT_SETTINGS = {
  ...ALERT_SETTING_DEFAULTS,
  slackEnabled: false,
  slackWebhookPreview: null,
  slackChannel: null,
  smsEnabled: false,
  smsNumber: null,
  webhookEnabled: false,
  webhookUrl: null,
  quietHours: null,
} satisfies Omit<AlertSettings, 'updatedAt'>;

/**
 * The answer to PUT /api/alert-settings: the saved form, and the signing secret of the webhook the
 * webhook URL registers when a new one was made (turned on, or a new URL): shown this once.
 */
export const SavedAlertSettings = AlertSettings.extend({ webhookSigningSecret: z.string().optional() });
export type SavedAlertSettings = z.infer<typeof SavedAlertSettings>;

/**
 * PUT /api/alert-settings: any subset of the form; a field left out keeps its value (the spec's
 * form may send an empty object). `slackWebhookUrl` null removes the saved one.
 */
export const UpdateAlertSettings = z
  .object({
    emailDeliverability: z.boolean(),
    emailReputation: z.boolean(),
    emailBounce: z.boolean(),
    emailSpam: z.boolean(),
    inboxThreshold: percent('inboxThreshold'),
    bounceThreshold: percent('bounceThreshold'),
    spamThreshold: z
      .number({ error: 'spamThreshold must be a number' })
      .min(0, 'spamThreshold must be between 0 and 10')
      .max(10, 'spamThreshold must be between 0 and 10')
      .refine((v) => Number.isInteger(Math.round(v * 10 * 1e6) / 1e6), 'spamThreshold goes in steps of 0.1'),
    reputationThreshold: percent('reputationThreshold'),
    slackEnabled: z.boolean(),
    slackWebhookUrl: slackWebhookUrl.nullable(),
    slackChannel: text('slackChannel', 80, { trim: true }).nullable(),
    smsEnabled: z.boolean(),
    smsNumber: z
      .string({ error: 'smsNumber must be text' })
      .transform((v) => v.replace(/[\s().-]/g, ''))
      .refine((v) => E164.test(v), 'smsNumber must be an international number such as +14155550123')
      .nullable(),
    webhookEnabled: z.boolean(),
    webhookUrl: httpsUrl('webhookUrl').nullable(),
    frequency: AlertFrequency,
    quietHours: QuietHours.nullable(),
  })
  .partial()
  .strict();
export type UpdateAlertSettings = z.input<typeof UpdateAlertSettings>;

/** What an alert rule watches; `direction` says whether crossing means going above or below the thresholds. */
export const ALERT_RULE_TYPES = {
  inboxRate: { label: 'Inbox placement rate', unit: '%', direction: 'below' },
  deliveryRate: { label: 'Delivery rate', unit: '%', direction: 'below' },
  bounceRate: { label: 'Bounce rate', unit: '%', direction: 'above' },
  complaintRate: { label: 'Spam complaint rate', unit: '%', direction: 'above' },
  senderScore: { label: 'Sender score', unit: '', direction: 'below' },
  volumeIncrease: { label: 'Volume increase over the previous window', unit: '%', direction: 'above' },
  volumeDecrease: { label: 'Volume decrease over the previous window', unit: '%', direction: 'above' },
} as const;
export type AlertRuleType = keyof typeof ALERT_RULE_TYPES;
export const AlertRuleType = z.enum(Object.keys(ALERT_RULE_TYPES) as [AlertRuleType, ...AlertRuleType[]], {
  error: `type must be one of ${Object.keys(ALERT_RULE_TYPES).join(', ')}`,
});

export const ALERT_RULE_WINDOWS = ['10m', '1h', '6h', '24h', '7d'] as const;
export const AlertRuleWindow = z.enum(ALERT_RULE_WINDOWS, {
  error: `timeWindow must be one of ${ALERT_RULE_WINDOWS.join(', ')}`,
});

export const RuleNotifications = z.object({
  email: z.boolean().default(true),
  webhook: z.boolean().default(false),
  slack: z.boolean().default(false),
  sms: z.boolean().default(false),
});

/** Part 2 section 3's alert rule: name, type, domain, threshold {warning, critical}, notifications, timeWindow. */
export const AlertRule = z.object({
  id: z.number().int(),
  name: z.string(),
  type: AlertRuleType,
  /** null: every domain of the user. */
  domain: z.string().nullable(),
  threshold: z.object({ warning: z.number(), critical: z.number() }),
  notifications: z.object({ email: z.boolean(), webhook: z.boolean(), slack: z.boolean(), sms: z.boolean() }),
  timeWindow: AlertRuleWindow,
  enabled: z.boolean(),
  createdAt: z.string(),
  /** Which figures the rule is judged on, in a sentence (contracts/alert-rule-basis.ts). */
  judgedOn: z.string().optional(),
});
export type AlertRule = z.infer<typeof AlertRule>;

/** At most this many rules an account keeps. */
export const MAX_ALERT_RULES = 100;

/** POST /api/alerts/rules. The critical threshold lies beyond the warning one in the rule's direction. */
export const CreateAlertRule = z.object({
  name: text('name', 100, { trim: true, required: 'name is required' }).min(1, 'name is required'),
  type: AlertRuleType,
  domain: text('domain', 253, { trim: true }).toLowerCase().nullable().default(null),
  threshold: z.object({
    warning: z
      .number({ error: 'threshold.warning must be a number' })
      .min(0, 'threshold.warning must be 0 or more')
      .max(1_000_000),
    critical: z
      .number({ error: 'threshold.critical must be a number' })
      .min(0, 'threshold.critical must be 0 or more')
      .max(1_000_000),
  }),
  notifications: RuleNotifications.default({ email: true, webhook: false, slack: false, sms: false }),
  timeWindow: AlertRuleWindow.default('1h'),
  enabled: z.boolean().default(true),
});
export type CreateAlertRule = z.input<typeof CreateAlertRule>;

export const AlertRuleIdParams = IdParams('Alert rule id');
