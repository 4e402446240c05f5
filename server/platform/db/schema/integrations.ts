import { integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './users';

/** An ESP, analytics or MTA integration a user installed. */
export const integrations = pgTable(
  'integrations',
  {
    id: serial().primaryKey(),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    provider: text().notNull(),
    type: text({ enum: ['esp', 'analytics', 'mta'] }).notNull(),
    status: text({ enum: ['active', 'inactive', 'error'] })
      .notNull()
      .default('inactive'),
    lastSyncAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('integrations_user_provider_key').on(t.userId, t.provider)],
);
