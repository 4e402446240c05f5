import { lt, sql } from 'drizzle-orm';
import type { Db, Executor } from '../db/client';
import { rateLimits } from '../db/schema/index';

/**
 * Counts `amount` (one attempt, or a number of bytes) in the window of `key` in one upsert (shared by
 * every process); a window that has ended starts again. Returns the window's count and the seconds
 * until it ends.
 */
export async function countAttempt(
  db: Db,
  key: string,
  windowSeconds: number,
  amount = 1,
): Promise<{ count: number; retryAfter: number }> {
  const result = await db.execute<{ count: number; retry_after: number }>(sql`
    INSERT INTO rate_limits AS r (key, window_start, window_end, count)
    VALUES (${key}, now(), now() + make_interval(secs => ${windowSeconds}), ${amount})
    ON CONFLICT (key) DO UPDATE SET
      window_start = CASE WHEN r.window_end <= now() THEN now() ELSE r.window_start END,
      window_end = CASE WHEN r.window_end <= now() THEN now() + make_interval(secs => ${windowSeconds}) ELSE r.window_end END,
      count = CASE WHEN r.window_end <= now() THEN ${amount} ELSE r.count + ${amount} END
    RETURNING count, ceil(extract(epoch FROM window_end - now()))::int AS retry_after`);
  const row = result.rows[0];
  return { count: row.count, retryAfter: row.retry_after };
}

/** The count of `key`'s window that is running now (0 when none is), read without writing. */
export async function readAttempts(db: Db, key: string): Promise<{ count: number; retryAfter: number }> {
  const result = await db.execute<{ count: number; retry_after: number }>(sql`
    SELECT count, ceil(extract(epoch FROM window_end - now()))::int AS retry_after
    FROM rate_limits WHERE key = ${key} AND window_end > now()`);
  const row = result.rows[0];
  return row ? { count: row.count, retryAfter: row.retry_after } : { count: 0, retryAfter: 0 };
}

/** Drops the windows that have ended (the maintenance job). */
export async function purgeEndedRateLimits(db: Db): Promise<void> {
  await db.delete(rateLimits).where(lt(rateLimits.windowEnd, sql`now()`));
}

/**
 * Account deletion, inside its transaction: the counters named after the user, by id ("login-fail-user:12",
 * "login-fail-user-ip:12@203.0.113.9", "inbox-test-user:12") or by address ("mail-address:reset:ada@example.com").
 * Counters per IP address stay: they hold nothing of the account and still guard the flows.
 */
export async function deleteUserCounters(ex: Executor, userId: number, email: string): Promise<void> {
  const address = email.toLowerCase();
  await ex.execute(sql`
    DELETE FROM rate_limits
    WHERE key ~ ${`^[a-z-]+:${userId}(@|$)`} OR right(key, ${address.length + 1}) = ${`:${address}`}`);
}
