import { index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { belongsTo } from './columns';
import { users } from './users';

/** Server-side sessions. The cookie holds a random token; only its SHA-256 is stored here. */
export const sessions = pgTable(
  'sessions',
  {
    idHash: text().primaryKey(),
    userId: belongsTo(() => users.id),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    ip: text(),
    userAgent: text(),
  },
  (t) => [index('sessions_user_id_idx').on(t.userId), index('sessions_expires_at_idx').on(t.expiresAt)],
);
