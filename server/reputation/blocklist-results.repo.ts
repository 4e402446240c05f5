import { eq, sql, type AnyColumn } from 'drizzle-orm';
import type { Executor } from '../platform/db/client';
import { domains, ipAddresses, reputationRuns } from '../platform/db/schema/index';

/*
 * A user's run bookkeeping (reputation_runs). A run is queued from requested_at and going from
 * started_at until finished_at; either stops counting after 15 minutes, the longest a run may take,
 * so a process that died does not leave the user "running" for ever (pg-boss retries the job).
 */

export const STALE_RUN_MINUTES = 15;
const stale = sql.raw(`now() - interval '${STALE_RUN_MINUTES} minutes'`);
const since = (column: AnyColumn) =>
  sql`(${column} > coalesce(${reputationRuns.finishedAt}, '-infinity'::timestamptz) and ${column} > ${stale})`;
const queuedOrGoing = sql`(${since(reputationRuns.requestedAt)} or ${since(reputationRuns.startedAt)})`;
const going = since(reputationRuns.startedAt);

export type RunRow = typeof reputationRuns.$inferSelect;

export async function findRun(ex: Executor, userId: number): Promise<(RunRow & { isRunning: boolean }) | undefined> {
  const [row] = await ex
    .select({ run: reputationRuns, isRunning: sql<boolean>`${queuedOrGoing}` })
    .from(reputationRuns)
    .where(eq(reputationRuns.userId, userId));
  return row && { ...row.run, isRunning: row.isRunning };
}

/**
 * Marks a check requested unless one is queued or going; one statement, so of two requests at once
 * only one sees it idle (the second waits on the row and re-reads it).
 */
export async function markRunRequested(ex: Executor, userId: number): Promise<boolean> {
  const rows = await ex
    .insert(reputationRuns)
    .values({ userId, requestedAt: sql`now()` })
    .onConflictDoUpdate({ target: reputationRuns.userId, set: { requestedAt: sql`now()` }, setWhere: sql`not ${queuedOrGoing}` })
    .returning({ userId: reputationRuns.userId });
  return rows.length > 0;
}

/** Starts a run unless another one is going; the start time, or null. */
export async function claimRun(ex: Executor, userId: number): Promise<Date | null> {
  const [row] = await ex
    .insert(reputationRuns)
    .values({ userId, startedAt: sql`now()` })
    .onConflictDoUpdate({ target: reputationRuns.userId, set: { startedAt: sql`now()` }, setWhere: sql`not ${going}` })
    .returning({ startedAt: reputationRuns.startedAt });
  return row?.startedAt ?? null;
}

export async function finishRun(ex: Executor, userId: number): Promise<void> {
  await ex.update(reputationRuns).set({ finishedAt: sql`now()`, lastError: null }).where(eq(reputationRuns.userId, userId));
}

/** The run is over without a result: no longer running, and the status says why. */
export async function failRun(ex: Executor, userId: number, message: string): Promise<void> {
  await ex.update(reputationRuns).set({ requestedAt: null, startedAt: null, lastError: message }).where(eq(reputationRuns.userId, userId));
}

/** Serialises the writes of two runs of one user (a stale run taken over while it still writes). */
export async function lockUserRun(ex: Executor, userId: number): Promise<void> {
  await ex.execute(sql`select pg_advisory_xact_lock(hashtext('reputation-run'), ${userId})`);
}

/** Users with something to check: a monitored IP or a domain. */
export async function listMonitoringUserIds(ex: Executor): Promise<number[]> {
  const rows = await ex
    .selectDistinct({ userId: ipAddresses.userId })
    .from(ipAddresses)
    .union(ex.selectDistinct({ userId: domains.userId }).from(domains));
  return rows.map((r) => r.userId).sort((a, b) => a - b);
}
