import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  real,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { belongsTo } from './columns';
import { users } from './users';

export const alerts = pgTable(
  'alerts',
  {
    id: serial().primaryKey(),
    userId: belongsTo(() => users.id),
    type: text().notNull(),
    severity: text().notNull(),
    title: text().notNull(),
    message: text().notNull(),
    domain: text(),
    metadata: jsonb().$type<Record<string, unknown>>(),
    isRead: boolean().notNull().default(false),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    /** What condition raised it (e.g. "rule:12:example.com"): one open alert per condition, updated while it lasts. */
    conditionKey: text(),
    updatedAt: timestamp({ withTimezone: true }),
    /** The data recovered; the alert stays, its history says when. */
    resolvedAt: timestamp({ withTimezone: true }),
    acknowledgedAt: timestamp({ withTimezone: true }),
    /** What happened to it: raised, updated, resolved, acknowledged, each with its time and words. */
    history: jsonb().$type<{ at: string; event: string; message: string }[]>().notNull().default([]),
    /**
     * When its raising (or its last escalation) was taken into the notification queue
     * (alert_notifications); null while that is due. Evaluation sets it back to null on escalation.
     */
    notifiedAt: timestamp({ withTimezone: true }),
    /** When its resolution was taken into the notification queue; null while a resolution is due. */
    resolutionNotifiedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    // The list's order (newest first, ties by id) read straight from the index, with no sort of the user's alerts.
    index('alerts_user_created_idx').on(t.userId, t.createdAt, t.id),
    // The delivery sweep's question every minute: whose alerts have something to tell?
    index('alerts_notification_due_idx')
      .on(t.userId)
      .where(sql`${t.notifiedAt} IS NULL OR (${t.resolvedAt} IS NOT NULL AND ${t.resolutionNotifiedAt} IS NULL)`),
    uniqueIndex('alerts_open_condition_key')
      .on(t.userId, t.conditionKey)
      .where(sql`${t.conditionKey} IS NOT NULL AND ${t.resolvedAt} IS NULL`),
  ],
);

/** A user's Alert Settings form, as saved (absent row: the defaults of contracts/alert-settings.ts). */
export const alertSettings = pgTable('alert_settings', {
  userId: belongsTo(() => users.id).primaryKey(),
  emailDeliverability: boolean().notNull().default(true),
  emailReputation: boolean().notNull().default(true),
  emailBounce: boolean().notNull().default(true),
  emailSpam: boolean().notNull().default(true),
  inboxThreshold: real().notNull().default(90),
  bounceThreshold: real().notNull().default(5),
  spamThreshold: real().notNull().default(0.3),
  reputationThreshold: real().notNull().default(70),
  slackEnabled: boolean().notNull().default(false),
  /** Encrypted with the secret box: whoever has the URL can post to the channel. */
  slackWebhookUrlEncrypted: text(),
  slackWebhookPreview: text(),
  slackChannel: text(),
  smsEnabled: boolean().notNull().default(false),
  smsNumber: text(),
  /** When the owner proved smsNumber reaches them with a code; null until then, and again when the number changes. */
  smsVerifiedAt: timestamp({ withTimezone: true }),
  /** The code last texted to smsNumber (hashed), until it expires or is used up by wrong tries. */
  smsCodeHash: text(),
  smsCodeExpiresAt: timestamp({ withTimezone: true }),
  smsCodeTries: integer().notNull().default(0),
  webhookEnabled: boolean().notNull().default(false),
  webhookUrl: text(),
  frequency: text({ enum: ['immediate', 'hourly', 'daily', 'weekly'] })
    .notNull()
    .default('immediate'),
  quietHours: jsonb().$type<{ start: string; end: string; timeZone: string }>(),
  updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

/** A user's own alert rule (part 2 section 3): a metric, thresholds, channels and a time window. */
export const alertRules = pgTable(
  'alert_rules',
  {
    id: serial().primaryKey(),
    userId: belongsTo(() => users.id),
    name: text().notNull(),
    type: text().notNull(),
    domain: text(),
    warningThreshold: real().notNull(),
    criticalThreshold: real().notNull(),
    notifications: jsonb().$type<{ email: boolean; webhook: boolean; slack: boolean; sms: boolean }>().notNull(),
    timeWindow: text().notNull(),
    enabled: boolean().notNull().default(true),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('alert_rules_user_idx').on(t.userId, t.createdAt)],
);
