import { date, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { belongsTo } from './columns';
import { users } from './users';

/**
 * Pushed e-mail data refused because the plan's e-mails a month were used up (ADR 043), one row per
 * user and source: the current UTC month's refusals, started again by the first refusal of a new month.
 */
export const emailQuotaRefusals = pgTable(
  'email_quota_refusals',
  {
    userId: belongsTo(() => users.id),
    /** Where the refused data came from: an MTA (postfix, powermta, ...), smtp2go or api. */
    source: text().notNull(),
    /** The first day of the UTC month the figures below are of. */
    month: date({ mode: 'string' }).notNull(),
    /** Delivery events (or days of figures) refused, and the requests that carried them. */
    events: integer().notNull(),
    requests: integer().notNull(),
    lastAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.source] })],
);
