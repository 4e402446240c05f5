import { date, index, integer, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { belongsTo } from './columns';
import { users } from './users';

/**
 * Sending figures for one UTC day, per source (an ESP plugin's sync or an MTA's events), mailbox
 * provider and sending IP. An ESP's daily statistics know neither: they are kept under '' for both.
 */
export const emailMetrics = pgTable(
  'email_metrics',
  {
    id: serial().primaryKey(),
    userId: belongsTo(() => users.id),
    /** Where the figures came from: a plugin id (sendgrid, ...) or an MTA (postfix, powermta, ...). */
    provider: text().notNull(),
    date: date({ mode: 'string' }).notNull(),
    /** The recipients' mailbox provider (gmail, outlook, yahoo, ..., other), '' when the source does not say. */
    mailboxProvider: text().notNull().default(''),
    /** The sending IP address, '' when the source does not say. */
    sendingIp: text().notNull().default(''),
    emailsSent: integer().notNull().default(0),
    delivered: integer().notNull().default(0),
    /** Hard and soft bounces together; the two below split them when the source says which. */
    bounced: integer().notNull().default(0),
    hardBounces: integer().notNull().default(0),
    softBounces: integer().notNull().default(0),
    deferred: integer().notNull().default(0),
    complaints: integer().notNull().default(0),
    opens: integer().notNull().default(0),
    clicks: integer().notNull().default(0),
  },
  (t) => [
    uniqueIndex('email_metrics_user_provider_date_key').on(
      t.userId,
      t.provider,
      t.date,
      t.mailboxProvider,
      t.sendingIp,
    ),
    // The dashboard's 30 days and the month's allowance read a range of days of every provider: bounded by the day,
    // where the key above, led by the provider, would read the user's whole history.
    index('email_metrics_user_date_idx').on(t.userId, t.date),
  ],
);
