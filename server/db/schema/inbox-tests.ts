import { index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './users';

/** An inbox placement test; the counts are totals over every seed once the test completes. */
export const inboxTests = pgTable(
  'inbox_tests',
  {
    id: serial().primaryKey(),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    status: text({ enum: ['awaiting_email', 'running', 'completed', 'failed'] }).notNull().default('awaiting_email'),
    testType: text().notNull().default('automatic'),
    testEmailAddress: text().notNull().unique(),
    subject: text(),
    provider: text(),
    totalSeeds: integer().notNull().default(0),
    inboxCount: integer().notNull().default(0),
    spamCount: integer().notNull().default(0),
    missingCount: integer().notNull().default(0),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp({ withTimezone: true }),
  },
  (t) => [index('inbox_tests_user_idx').on(t.userId, t.createdAt)],
);
