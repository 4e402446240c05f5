import { index, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { belongsTo } from './columns';
import { users } from './users';

/** Single-use tokens mailed to users (password reset, e-mail verification), stored as SHA-256. */
export const authTokens = pgTable(
  'auth_tokens',
  {
    id: serial().primaryKey(),
    tokenHash: text().notNull().unique(),
    userId: belongsTo(() => users.id),
    purpose: text({ enum: ['reset_password', 'verify_email'] }).notNull(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    usedAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('auth_tokens_user_id_idx').on(t.userId), index('auth_tokens_expires_at_idx').on(t.expiresAt)],
);
