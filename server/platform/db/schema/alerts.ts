import { boolean, index, integer, jsonb, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './users';

export const alerts = pgTable(
  'alerts',
  {
    id: serial().primaryKey(),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    type: text().notNull(),
    severity: text().notNull(),
    title: text().notNull(),
    message: text().notNull(),
    domain: text(),
    metadata: jsonb().$type<Record<string, unknown>>(),
    isRead: boolean().notNull().default(false),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('alerts_user_created_idx').on(t.userId, t.createdAt)],
);
