import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { belongsTo } from './columns';
import { users } from './users';

/** An endpoint a user registered for outgoing webhook events. */
export const webhooks = pgTable(
  'webhooks',
  {
    id: serial().primaryKey(),
    userId: belongsTo(() => users.id),
    url: text().notNull(),
    events: jsonb().$type<string[]>().notNull(),
    description: text(),
    /** The signing secret, encrypted with the secret box; shown to the user once. */
    secretEncrypted: text().notNull(),
    /** Who keeps it: null for one the user registered, 'alert_settings' for the one Alert Settings' webhook URL manages. */
    source: text({ enum: ['alert_settings'] }),
    /** Failed attempts in a row, across its deliveries; a delivered attempt sets it back to 0. */
    failureStreak: integer().notNull().default(0),
    /**
     * The circuit breaker (ADR 051): set when the failure streak reaches its threshold, and kept (in the
     * past) while a probe attempt tells whether the endpoint answers again; null when deliveries flow.
     */
    pausedUntil: timestamp({ withTimezone: true }),
    /** The last failed attempt's error, shown with the pause. */
    lastError: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('webhooks_user_idx').on(t.userId),
    uniqueIndex('webhooks_user_source_key')
      .on(t.userId, t.source)
      .where(sql`${t.source} IS NOT NULL`),
  ],
);

/** One event sent (or being sent) to one webhook, with every attempt. */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: serial().primaryKey(),
    webhookId: belongsTo(() => webhooks.id),
    userId: belongsTo(() => users.id),
    /** The event envelope's id (evt_...), the same on every attempt and redelivery. */
    eventId: text().notNull(),
    eventType: text().notNull(),
    /** The exact body sent, so each attempt signs and sends the same bytes. */
    body: text().notNull(),
    status: text({ enum: ['pending', 'retrying', 'delivered', 'failed'] })
      .notNull()
      .default('pending'),
    attempts: jsonb()
      .$type<{ at: string; statusCode: number | null; error: string | null; durationMs: number }[]>()
      .notNull()
      .default([]),
    deliveredAt: timestamp({ withTimezone: true }),
    /** While an attempt is in flight: the in-flight limits count these (durable delivery's lease). */
    leasedUntil: timestamp({ withTimezone: true }),
    /** Put back to wait for a free slot (or for its paused endpoint), with no job: a finished attempt wakes it. */
    waitingSince: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('webhook_deliveries_webhook_idx').on(t.webhookId, t.createdAt),
    index('webhook_deliveries_in_flight_idx')
      .on(t.userId, t.webhookId)
      .where(sql`${t.leasedUntil} IS NOT NULL`),
    index('webhook_deliveries_waiting_idx')
      .on(t.userId, t.createdAt)
      .where(sql`${t.waitingSince} IS NOT NULL`),
    // The sweep reads only deliveries still to be attempted: few, however long the history grows.
    index('webhook_deliveries_open_idx')
      .on(t.id)
      .where(sql`${t.status} in ('pending', 'retrying')`),
  ],
);
