import { integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { belongsTo } from './columns';
import { users } from './users';

/** An ESP, analytics or MTA integration a user installed. */
export const integrations = pgTable(
  'integrations',
  {
    id: serial().primaryKey(),
    userId: belongsTo(() => users.id),
    provider: text().notNull(),
    type: text({ enum: ['esp', 'analytics', 'mta'] }).notNull(),
    status: text({ enum: ['active', 'inactive', 'error'] })
      .notNull()
      .default('inactive'),
    lastSyncAt: timestamp({ withTimezone: true }),
    /** The plugin's secret fields (API keys, OAuth refresh token) as JSON, sealed with the secret box; never returned. */
    credentialsEncrypted: text(),
    /** The plugin's other config fields (server prefix, store domain, ...), shown back to the user. */
    config: jsonb().$type<Record<string, string>>().notNull().default({}),
    /** The last sync's error as the provider said it, until a sync succeeds. */
    lastError: text(),
    lastErrorAt: timestamp({ withTimezone: true }),
    /** Syncs that failed in a row: an alert is raised when they keep failing. */
    consecutiveFailures: integer().notNull().default(0),
    /** When the next sync may run (a provider's 429 Retry-After, or the back-off after failures). */
    nextSyncAt: timestamp({ withTimezone: true }),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('integrations_user_provider_key').on(t.userId, t.provider)],
);
