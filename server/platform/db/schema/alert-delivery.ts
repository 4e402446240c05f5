import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { belongsTo } from './columns';
import { alerts } from './alerts';
import { users } from './users';

/**
 * Something to tell a user about an alert (it was raised, escalated or resolved), taken from the
 * alert in the same transaction that marks the alert notified: the durable queue the e-mail, Slack
 * and SMS messages are made from, by the user's frequency and quiet hours. The alert's words are
 * copied as they were then.
 */
export const alertNotifications = pgTable(
  'alert_notifications',
  {
    id: serial().primaryKey(),
    userId: belongsTo(() => users.id),
    // A deleted alert is not announced any more.
    alertId: belongsTo(() => alerts.id),
    event: text({ enum: ['raised', 'escalated', 'resolved'] }).notNull(),
    type: text().notNull(),
    severity: text().notNull(),
    title: text().notNull(),
    message: text().notNull(),
    domain: text(),
    /** The rule that raised it (metadata.ruleId): its notifications choose the channels. */
    ruleId: integer(),
    /** When it happened (raised, escalated, resolved): what a digest's schedule compares. */
    occurredAt: timestamp({ withTimezone: true }).notNull(),
    /** When a message took it (alert_digests); null while it waits for its digest or the end of quiet hours. */
    claimedAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('alert_notifications_pending_idx')
      .on(t.userId, t.occurredAt)
      .where(sql`${t.claimedAt} IS NULL`),
    index('alert_notifications_alert_idx').on(t.alertId),
  ],
);

/** One alert as a message carries it: the notification's words, copied when the message was made. */
export interface DigestItem {
  notificationId: number;
  alertId: number;
  event: 'raised' | 'escalated' | 'resolved';
  type: string;
  severity: string;
  title: string;
  message: string;
  domain: string | null;
  /** ISO time it happened. */
  at: string;
}

/**
 * One message on one channel (an e-mail, a Slack post, an SMS, a webhook event) carrying one alert or
 * a digest of several, written in the transaction that claims its notifications and sent by its own
 * durable job. A sender leases the row (lockedUntil) so two never send it at once.
 */
export const alertDigests = pgTable(
  'alert_digests',
  {
    id: serial().primaryKey(),
    userId: belongsTo(() => users.id),
    channel: text({ enum: ['email', 'slack', 'sms', 'webhook'] }).notNull(),
    /** The frequency it was made for; webhooks are always 'immediate'. */
    frequency: text({ enum: ['immediate', 'hourly', 'daily', 'weekly'] }).notNull(),
    items: jsonb().$type<DigestItem[]>().notNull(),
    /** sent: handed over (to the outbox, Slack, Twilio, the webhook deliveries); skipped: the channel was off, or the plan lacks it, at send time. */
    status: text({ enum: ['pending', 'sent', 'failed', 'skipped'] })
      .notNull()
      .default('pending'),
    attempts: integer().notNull().default(0),
    lockedUntil: timestamp({ withTimezone: true }),
    lastError: text(),
    /** E-mail: the outbox row it became. */
    outboxId: integer(),
    /** Webhook: the event id every delivery of it carries (the same on a retry of this row). */
    eventId: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    index('alert_digests_pending_idx')
      .on(t.createdAt)
      .where(sql`${t.status} = 'pending'`),
    index('alert_digests_user_idx').on(t.userId, t.createdAt),
  ],
);
