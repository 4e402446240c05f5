import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { apiKeys, users, type UserRow } from '../db/schema/index';

// The reads a bearer request needs. Generating, replacing and revoking keys is the api-keys
// capability's (server/api-keys/api-keys.repo.ts), as sessions are started here and listed by accounts.

/** The owner of the key whose SHA-256 is `keyHash`; undefined for a key that does not exist (any more). */
export async function loadApiKeyUser(db: Db, keyHash: string): Promise<UserRow | undefined> {
  const [row] = await db
    .select({ user: users })
    .from(apiKeys)
    .innerJoin(users, eq(users.id, apiKeys.userId))
    .where(eq(apiKeys.keyHash, keyHash));
  return row?.user;
}

/** Marks the key used now, unless it was marked within the last minute (by any process). */
export async function markApiKeyUsed(db: Db, keyHash: string): Promise<void> {
  await db
    .update(apiKeys)
    .set({ lastUsedAt: sql`date_trunc('minute', now())` })
    .where(
      sql`${apiKeys.keyHash} = ${keyHash} AND (${apiKeys.lastUsedAt} IS NULL OR ${apiKeys.lastUsedAt} < date_trunc('minute', now()))`,
    );
}

/**
 * Leases `block` requests of the user's API quota for the current clock hour (one counter row shared
 * by every process, in rate_limits, which the maintenance job purges once the hour is over). Returns
 * the hour's counter after the lease (it may pass the limit: what is past it was not granted) and
 * when the hour ends.
 */
export async function leaseApiQuota(
  db: Db,
  userId: number,
  block: number,
): Promise<{ count: number; windowEndMs: number }> {
  const result = await db.execute<{ count: number; window_end_ms: string | number }>(sql`
    INSERT INTO rate_limits AS r (key, window_start, window_end, count)
    VALUES (${`api-hour:${userId}`}, date_trunc('hour', now()), date_trunc('hour', now()) + interval '1 hour', ${block})
    ON CONFLICT (key) DO UPDATE SET
      window_start = CASE WHEN r.window_end <= now() THEN EXCLUDED.window_start ELSE r.window_start END,
      window_end = CASE WHEN r.window_end <= now() THEN EXCLUDED.window_end ELSE r.window_end END,
      count = CASE WHEN r.window_end <= now() THEN EXCLUDED.count ELSE r.count + EXCLUDED.count END
    RETURNING count, (extract(epoch FROM window_end) * 1000)::bigint AS window_end_ms`);
  const row = result.rows[0];
  return { count: row.count, windowEndMs: Number(row.window_end_ms) };
}
