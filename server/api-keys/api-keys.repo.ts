import { eq, sql } from 'drizzle-orm';
import type { Db, Executor } from '../platform/db/client';
import { apiKeys, webhookTokens } from '../platform/db/schema/index';

// Generating, replacing and revoking keys and tokens. What a bearer request reads of a key is in
// server/platform/http/api-keys.repo.ts (the platform authenticates every route).

export type ApiKeyRow = typeof apiKeys.$inferSelect;
export type WebhookTokenRow = typeof webhookTokens.$inferSelect;

export interface NewSecret {
  hash: string;
  preview: string;
}

export async function findApiKey(db: Db, userId: number): Promise<ApiKeyRow | undefined> {
  const [row] = await db.select().from(apiKeys).where(eq(apiKeys.userId, userId));
  return row;
}

/** The user's first key; undefined when they already have one. */
export async function insertApiKey(db: Db, userId: number, key: NewSecret): Promise<ApiKeyRow | undefined> {
  const [row] = await db
    .insert(apiKeys)
    .values({ userId, keyHash: key.hash, keyPreview: key.preview })
    .onConflictDoNothing({ target: apiKeys.userId })
    .returning();
  return row;
}

/** Puts `key` in place of the user's key (or as their first); returns it and the hash it replaced. */
export async function replaceApiKey(
  db: Db,
  userId: number,
  key: NewSecret,
): Promise<{ row: ApiKeyRow; replacedHash?: string }> {
  return db.transaction(async (tx) => {
    const [old] = await tx
      .select({ keyHash: apiKeys.keyHash })
      .from(apiKeys)
      .where(eq(apiKeys.userId, userId))
      .for('update');
    const [row] = await tx
      .insert(apiKeys)
      .values({ userId, keyHash: key.hash, keyPreview: key.preview })
      .onConflictDoUpdate({
        target: apiKeys.userId,
        set: { keyHash: key.hash, keyPreview: key.preview, createdAt: sql`now()`, lastUsedAt: null },
      })
      .returning();
    return { row, replacedHash: old?.keyHash };
  });
}

/** Removes the user's key; returns its hash, undefined when there was none. */
export async function deleteApiKey(db: Executor, userId: number): Promise<string | undefined> {
  const [row] = await db.delete(apiKeys).where(eq(apiKeys.userId, userId)).returning({ keyHash: apiKeys.keyHash });
  return row?.keyHash;
}

export async function findWebhookToken(db: Db, userId: number): Promise<WebhookTokenRow | undefined> {
  const [row] = await db.select().from(webhookTokens).where(eq(webhookTokens.userId, userId));
  return row;
}

export async function findWebhookTokenOwner(db: Db, tokenHash: string): Promise<number | undefined> {
  const [row] = await db
    .select({ userId: webhookTokens.userId })
    .from(webhookTokens)
    .where(eq(webhookTokens.tokenHash, tokenHash));
  return row?.userId;
}

/** The user's first token; undefined when they already have one. */
export async function insertWebhookToken(
  db: Db,
  userId: number,
  token: NewSecret,
): Promise<WebhookTokenRow | undefined> {
  const [row] = await db
    .insert(webhookTokens)
    .values({ userId, tokenHash: token.hash, tokenPreview: token.preview })
    .onConflictDoNothing({ target: webhookTokens.userId })
    .returning();
  return row;
}

export async function replaceWebhookToken(db: Db, userId: number, token: NewSecret): Promise<WebhookTokenRow> {
  const [row] = await db
    .insert(webhookTokens)
    .values({ userId, tokenHash: token.hash, tokenPreview: token.preview })
    .onConflictDoUpdate({
      target: webhookTokens.userId,
      set: { tokenHash: token.hash, tokenPreview: token.preview, createdAt: sql`now()` },
    })
    .returning();
  return row;
}

export async function deleteWebhookToken(db: Executor, userId: number): Promise<boolean> {
  const rows = await db
    .delete(webhookTokens)
    .where(eq(webhookTokens.userId, userId))
    .returning({ userId: webhookTokens.userId });
  return rows.length > 0;
}
