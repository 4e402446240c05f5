import { and, asc, eq, gt, sql } from 'drizzle-orm';
import { MONTH_START_DAY } from '../insights/email-metric-days';
import type { Db, Executor } from '../platform/db/client';
import { emailQuotaRefusals, users } from '../platform/db/schema/index';

// What the plan gate reads and counts (plan-gate.service.ts): the stored plan, the monthly counters, and what the
// e-mail allowance refused. The e-mails of the month are read across capabilities (insights/email-metric-days.ts).

/** The user's stored plan value, the user row locked against other writers until the transaction ends. */
export async function lockedPlanOf(tx: Executor, userId: number): Promise<string | undefined> {
  // NO KEY UPDATE: conflicts with itself and with a plan change, not with the FOR KEY SHARE of an
  // event batch (delivery-events.repo), which must not wait for a domain being added.
  const [row] = await tx
    .select({ plan: users.subscriptionPlan })
    .from(users)
    .where(eq(users.id, userId))
    .for('no key update');
  return row?.plan;
}

/** The user's stored plan value, read without a lock. */
export async function storedPlanOf(ex: Executor, userId: number): Promise<string | undefined> {
  const [row] = await ex.select({ plan: users.subscriptionPlan }).from(users).where(eq(users.id, userId));
  return row?.plan;
}

/**
 * Adds one to the counter `key` for the current UTC month unless it already reached `allowed` (null:
 * no ceiling). The counter lives in rate_limits as a window from the month's first instant to the
 * next month's; an ended month starts again at 1, and the maintenance job purges ended windows.
 * Whether it was counted.
 */
export async function claimMonthly(ex: Executor, key: string, allowed: number | null): Promise<boolean> {
  const result = await ex.execute<{ count: number }>(sql`
    WITH month AS (SELECT date_trunc('month', now() AT TIME ZONE 'UTC') AS start)
    INSERT INTO rate_limits AS r (key, window_start, window_end, count)
    SELECT ${key}, month.start AT TIME ZONE 'UTC', (month.start + interval '1 month') AT TIME ZONE 'UTC', 1 FROM month
    ON CONFLICT (key) DO UPDATE SET
      window_start = CASE WHEN r.window_end <= now() THEN EXCLUDED.window_start ELSE r.window_start END,
      window_end = CASE WHEN r.window_end <= now() THEN EXCLUDED.window_end ELSE r.window_end END,
      count = CASE WHEN r.window_end <= now() THEN 1 ELSE r.count + 1 END
    WHERE r.window_end <= now() OR ${allowed}::int IS NULL OR r.count < ${allowed}::int
    RETURNING count`);
  return result.rows.length > 0;
}

/** The counter `key` of the current month (0 when nothing was counted yet). */
export async function readMonthly(ex: Executor, key: string): Promise<number> {
  const result = await ex.execute<{ count: number }>(
    sql`SELECT count FROM rate_limits WHERE key = ${key} AND window_end > now()`,
  );
  return result.rows[0]?.count ?? 0;
}

/**
 * Adds a refusal of `events` pushed by `source` to the user's count of this UTC month; the first
 * refusal of a new month starts the count again.
 */
export async function recordEmailRefusal(ex: Executor, userId: number, source: string, events: number): Promise<void> {
  await ex
    .insert(emailQuotaRefusals)
    .values({ userId, source, month: sql`${MONTH_START_DAY}`, events, requests: 1, lastAt: sql`now()` })
    .onConflictDoUpdate({
      target: [emailQuotaRefusals.userId, emailQuotaRefusals.source],
      set: {
        events: sql`CASE WHEN ${emailQuotaRefusals.month} = excluded.month THEN ${emailQuotaRefusals.events} + excluded.events ELSE excluded.events END`,
        requests: sql`CASE WHEN ${emailQuotaRefusals.month} = excluded.month THEN ${emailQuotaRefusals.requests} + 1 ELSE 1 END`,
        month: sql`excluded.month`,
        lastAt: sql`excluded.last_at`,
      },
    });
}

/** This UTC month's refusals of the user, by source. */
export async function listEmailRefusals(ex: Executor, userId: number) {
  return ex
    .select({
      source: emailQuotaRefusals.source,
      events: emailQuotaRefusals.events,
      requests: emailQuotaRefusals.requests,
      lastAt: emailQuotaRefusals.lastAt,
    })
    .from(emailQuotaRefusals)
    .where(and(eq(emailQuotaRefusals.userId, userId), eq(emailQuotaRefusals.month, MONTH_START_DAY)))
    .orderBy(asc(emailQuotaRefusals.source));
}

/** A page of users and their stored plans, by id after `afterId` (the retention job walks every user's plan). */
export async function usersAfter(
  db: Db,
  afterId: number,
  limit: number,
): Promise<{ id: number; subscriptionPlan: string }[]> {
  return db
    .select({ id: users.id, subscriptionPlan: users.subscriptionPlan })
    .from(users)
    .where(gt(users.id, afterId))
    .orderBy(asc(users.id))
    .limit(limit);
}
