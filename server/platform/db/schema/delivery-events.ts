import { bigserial, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { reversedDomain } from '../reversed-domain';

/**
 * One delivery event an MTA or ESP reported for one recipient of one message. Kept once per message
 * id, recipient and event type (a retried batch changes nothing); `email_metrics` holds the daily sums.
 */
export const deliveryEvents = pgTable(
  'delivery_events',
  {
    id: bigserial({ mode: 'number' }).primaryKey(),
    // No foreign key: its check ran once per row, a third of a 1,000-event batch's insert. The one
    // writer locks the user row once per batch instead, and account deletion removes the rows
    // (delivery-events.repo, ADR 029).
    userId: integer().notNull(),
    /** Who reported it: postfix, powermta, greenarrow, halon, kumo, postal, smtp2go, api. */
    source: text().notNull(),
    messageId: text().notNull(),
    recipient: text().notNull(),
    eventType: text({ enum: ['delivered', 'bounced', 'deferred', 'complaint', 'dropped'] }).notNull(),
    /** For bounces: hard (permanent, 5xx) or soft (temporary, 4xx). */
    bounceClass: text({ enum: ['hard', 'soft'] }),
    /** RFC 3463 enhanced status code, e.g. 5.7.1. */
    enhancedStatus: text(),
    /** The receiving server's answer, bounded. */
    smtpResponse: text(),
    /** The sending domain (envelope sender or From), when the source says it. */
    domain: text(),
    recipientDomain: text().notNull(),
    /** From the recipient domain's MX: gmail, outlook, yahoo, ..., other. */
    mailboxProvider: text().notNull().default(''),
    sendingIp: text().notNull().default(''),
    occurredAt: timestamp({ withTimezone: true }).notNull(),
    receivedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('delivery_events_once_key').on(t.userId, t.messageId, t.recipient, t.eventType),
    index('delivery_events_user_time_idx').on(t.userId, t.occurredAt),
    // A domain's own events and its subdomains' (the timeline's figures), bounded by the time range.
    index('delivery_events_user_sender_time_idx').on(t.userId, reversedDomain(t.domain), t.occurredAt),
  ],
);
