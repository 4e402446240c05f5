import { index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './users';

/**
 * Every e-mail the product sends, written in the same transaction as the change that causes it and
 * delivered by the send-email job. Without SMTP_URL the row stays as `not_configured` so an
 * operator can still read a reset link (docs/decisions/003).
 */
export const outbox = pgTable(
  'outbox',
  {
    id: serial().primaryKey(),
    userId: integer().references(() => users.id, { onDelete: 'set null' }),
    kind: text().notNull(),
    toAddress: text().notNull(),
    subject: text().notNull(),
    // Bodies are cleared once delivered: a sent link should not outlive its purpose in the database.
    textBody: text(),
    htmlBody: text(),
    status: text({ enum: ['pending', 'sent', 'failed', 'not_configured'] }).notNull(),
    attempts: integer().notNull().default(0),
    // A sender claims a row until this time; a process that dies mid-send frees it when it passes.
    lockedUntil: timestamp({ withTimezone: true }),
    lastError: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp({ withTimezone: true }),
  },
  (t) => [index('outbox_status_idx').on(t.status), index('outbox_created_at_idx').on(t.createdAt)],
);
