import { and, eq, lt, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { idempotencyKeys } from '../db/schema/index';

export type IdempotencyRow = typeof idempotencyKeys.$inferSelect;

/**
 * Claims `key` for a request whose hash is `requestHash`: true when this request is the first (or
 * the key's last use is over 24 hours old, or its first request never finished: its process died),
 * false when another request holds or answered it.
 */
export async function claimIdempotencyKey(db: Db, userId: number, key: string, requestHash: string): Promise<boolean> {
  const rows = await db
    .insert(idempotencyKeys)
    .values({ userId, key, requestHash })
    .onConflictDoUpdate({
      target: [idempotencyKeys.userId, idempotencyKeys.key],
      set: { requestHash, status: null, responseBody: null, createdAt: sql`now()` },
      setWhere: sql`${idempotencyKeys.createdAt} < now() - interval '24 hours'
        OR (${idempotencyKeys.status} IS NULL AND ${idempotencyKeys.createdAt} < now() - interval '10 minutes')`,
    })
    .returning({ userId: idempotencyKeys.userId });
  return rows.length > 0;
}

export async function findIdempotencyKey(db: Db, userId: number, key: string): Promise<IdempotencyRow | undefined> {
  const [row] = await db
    .select()
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key)));
  return row;
}

/** The first request's answer, replayed from now on. */
export async function storeIdempotentAnswer(
  db: Db,
  userId: number,
  key: string,
  status: number,
  responseBody: string,
): Promise<void> {
  await db
    .update(idempotencyKeys)
    .set({ status, responseBody })
    .where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key)));
}

/** Frees the key for a retry (the first answer was not one to replay). */
export async function releaseIdempotencyKey(db: Db, userId: number, key: string): Promise<void> {
  await db.delete(idempotencyKeys).where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key)));
}

/** Drops keys past their 24 hours (the maintenance job); returns how many. */
export async function purgeExpiredIdempotencyKeys(db: Db): Promise<number> {
  const rows = await db
    .delete(idempotencyKeys)
    .where(lt(idempotencyKeys.createdAt, sql`now() - interval '24 hours'`))
    .returning({ userId: idempotencyKeys.userId });
  return rows.length;
}
