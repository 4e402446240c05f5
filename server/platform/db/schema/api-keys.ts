import { index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { belongsTo } from './columns';
import { users } from './users';

/**
 * One API key per user (the primary key says so). Only the SHA-256 of the key is stored: the key
 * carries 256 random bits, so a fast hash is as safe as a slow one and costs microseconds per request.
 * Migration 0017's trigger tells every process's key cache when a key is replaced or revoked.
 */
export const apiKeys = pgTable('api_keys', {
  userId: belongsTo(() => users.id).primaryKey(),
  keyHash: text().notNull().unique(),
  /** The prefix and the first characters ("ipk_3fA9…"): what Settings shows once the key is gone from view. */
  keyPreview: text().notNull(),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  /** Written at most once a minute per key (api-key-auth.ts). */
  lastUsedAt: timestamp({ withTimezone: true }),
});

/** One webhook token per user, stored like the API key: its SHA-256 and a preview. */
export const webhookTokens = pgTable('webhook_tokens', {
  userId: belongsTo(() => users.id).primaryKey(),
  tokenHash: text().notNull().unique(),
  tokenPreview: text().notNull(),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

/**
 * The first answer to a POST sent with an Idempotency-Key, replayed for the same user and key for 24
 * hours. status and responseBody stay null while the first request is still running.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    userId: belongsTo(() => users.id),
    key: text().notNull(),
    requestHash: text().notNull(),
    status: integer(),
    responseBody: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.key] }), index('idempotency_keys_created_at_idx').on(t.createdAt)],
);
