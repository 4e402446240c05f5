import { date, integer, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './users';

/** One provider's sending figures for one UTC day, as synced from an integration. */
export const emailMetrics = pgTable(
  'email_metrics',
  {
    id: serial().primaryKey(),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    provider: text().notNull(),
    date: date({ mode: 'string' }).notNull(),
    emailsSent: integer().notNull().default(0),
    delivered: integer().notNull().default(0),
    bounced: integer().notNull().default(0),
    complaints: integer().notNull().default(0),
  },
  (t) => [uniqueIndex('email_metrics_user_provider_date_key').on(t.userId, t.provider, t.date)],
);
