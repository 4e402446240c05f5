import { and, desc, eq, inArray, isNull, sql, type AnyColumn } from 'drizzle-orm';
import { listDomainOwnerIds } from '../domains/domain-reputation.service';
import { findUserDomain } from '../domains/domains.service';
import type { Executor } from '../platform/db/client';
import {
  blocklistIgnores,
  blocklistListings,
  blocklistResults,
  ipAddresses,
  reputationRuns,
} from '../platform/db/schema/index';

/*
 * A user's run bookkeeping (reputation_runs). A run is queued from requested_at and going from
 * started_at until finished_at; either stops counting after 15 minutes, the longest a run may take,
 * so a process that died does not leave the user "running" for ever (pg-boss retries the job).
 */

export const STALE_RUN_MINUTES = 15;
const stale = sql.raw(`now() - interval '${STALE_RUN_MINUTES} minutes'`);
const since = (column: AnyColumn) =>
  sql`coalesce(${column} > coalesce(${reputationRuns.finishedAt}, '-infinity'::timestamptz) and ${column} > ${stale}, false)`;
const going = since(reputationRuns.startedAt);
/** Asked for and not yet taken up by a run: a run that starts reads every IP and domain there is. */
const queued = sql`(${since(reputationRuns.requestedAt)} and ${reputationRuns.requestedAt} > coalesce(${reputationRuns.startedAt}, '-infinity'::timestamptz))`;
const queuedOrGoing = sql`(${queued} or ${going})`;

export type RunRow = typeof reputationRuns.$inferSelect;

export async function findRun(ex: Executor, userId: number): Promise<(RunRow & { isRunning: boolean }) | undefined> {
  const [row] = await ex
    .select({ run: reputationRuns, isRunning: sql<boolean>`${queuedOrGoing}` })
    .from(reputationRuns)
    .where(eq(reputationRuns.userId, userId));
  return row && { ...row.run, isRunning: row.isRunning };
}

/**
 * Marks a check requested unless one is queued (or, for `whenGoing: 'skip'`, going); one statement,
 * so of two requests at once only one sees the run idle (the second waits on the row and re-reads it).
 * 'follow' is for new IPs: the going run read its IPs before them, so one more run follows it (the
 * job's 'stately' policy holds it until the running one ends).
 */
export async function markRunRequested(ex: Executor, userId: number, whenGoing: 'skip' | 'follow'): Promise<boolean> {
  const rows = await ex
    .insert(reputationRuns)
    .values({ userId, requestedAt: sql`now()` })
    .onConflictDoUpdate({
      target: reputationRuns.userId,
      set: { requestedAt: sql`now()` },
      setWhere: whenGoing === 'skip' ? sql`not ${queuedOrGoing}` : sql`not ${queued}`,
    })
    .returning({ userId: reputationRuns.userId });
  return rows.length > 0;
}

export async function clearRunRequest(ex: Executor, userId: number): Promise<void> {
  await ex.update(reputationRuns).set({ requestedAt: null }).where(eq(reputationRuns.userId, userId));
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
  await ex
    .update(reputationRuns)
    .set({ finishedAt: sql`now()`, lastError: null })
    .where(eq(reputationRuns.userId, userId));
}

/** The run is over without a result: no longer running, and the status says why. */
export async function failRun(ex: Executor, userId: number, message: string): Promise<void> {
  await ex
    .update(reputationRuns)
    .set({ requestedAt: null, startedAt: null, lastError: message })
    .where(eq(reputationRuns.userId, userId));
}

/** Serialises the writes of two runs of one user (a stale run taken over while it still writes). */
export async function lockUserRun(ex: Executor, userId: number): Promise<void> {
  await ex.execute(sql`select pg_advisory_xact_lock(hashtext('reputation-run'), ${userId})`);
}

/** Users with something to check: a monitored IP or a domain. */
export async function listMonitoringUserIds(ex: Executor): Promise<number[]> {
  const rows = await ex.selectDistinct({ userId: ipAddresses.userId }).from(ipAddresses);
  const userIds = new Set([...rows.map((r) => r.userId), ...(await listDomainOwnerIds(ex))]);
  return [...userIds].sort((a, b) => a - b);
}

/*
 * Each list's latest answer, the listing history, and the check columns of IPs and domains. Every
 * query names the owner.
 */

export type ResultRow = typeof blocklistResults.$inferSelect;
export type ListingRow = typeof blocklistListings.$inferSelect;
export type NewResult = typeof blocklistResults.$inferInsert;
export interface IpTarget {
  id: number;
  ipAddress: string;
}

export async function listIpTargets(ex: Executor, userId: number): Promise<IpTarget[]> {
  return ex
    .select({ id: ipAddresses.id, ipAddress: ipAddresses.ipAddress })
    .from(ipAddresses)
    .where(eq(ipAddresses.userId, userId))
    .orderBy(ipAddresses.id);
}

/** The user's IP rows, locked until the transaction ends: one deleted meanwhile is not among them. */
export async function lockIpRows(tx: Executor, userId: number) {
  return tx.select().from(ipAddresses).where(eq(ipAddresses.userId, userId)).for('update');
}

export async function listResults(ex: Executor, userId: number): Promise<ResultRow[]> {
  return ex.select().from(blocklistResults).where(eq(blocklistResults.userId, userId));
}

export async function listOpenListings(ex: Executor, userId: number): Promise<ListingRow[]> {
  return ex
    .select()
    .from(blocklistListings)
    .where(and(eq(blocklistListings.userId, userId), isNull(blocklistListings.delistedAt)));
}

/** Stores each list's answer, replacing the one before (IP and domain rows use their own unique key). */
export async function upsertResults(tx: Executor, rows: NewResult[]): Promise<void> {
  const replace = {
    status: sql`excluded.status`,
    answers: sql`excluded.answers`,
    reason: sql`excluded.reason`,
    txt: sql`excluded.txt`,
    checkedAt: sql`excluded.checked_at`,
  };
  const forIps = rows.filter((r) => r.ipAddressId != null);
  const forDomains = rows.filter((r) => r.domainId != null);
  // Chunks keep each statement under PostgreSQL's 65,535 parameters (8 a row).
  for (const chunk of chunks(forIps, 2000))
    await tx
      .insert(blocklistResults)
      .values(chunk)
      .onConflictDoUpdate({ target: [blocklistResults.ipAddressId, blocklistResults.listId], set: replace });
  for (const chunk of chunks(forDomains, 2000))
    await tx
      .insert(blocklistResults)
      .values(chunk)
      .onConflictDoUpdate({ target: [blocklistResults.domainId, blocklistResults.listId], set: replace });
}

export async function openListings(tx: Executor, rows: (typeof blocklistListings.$inferInsert)[]): Promise<void> {
  for (const chunk of chunks(rows, 2000)) await tx.insert(blocklistListings).values(chunk);
}

export async function closeListings(tx: Executor, userId: number, ids: number[], at: Date): Promise<void> {
  if (ids.length === 0) return;
  await tx
    .update(blocklistListings)
    .set({ delistedAt: at })
    .where(and(eq(blocklistListings.userId, userId), inArray(blocklistListings.id, ids)));
}

export type IpCheckColumns = Partial<
  Pick<
    typeof ipAddresses.$inferInsert,
    | 'status'
    | 'blacklistCount'
    | 'totalProviders'
    | 'senderScore'
    | 'scoreFactors'
    | 'reverseDns'
    | 'reverseDnsConfirmed'
    | 'lastChecked'
  >
>;

export async function updateIpCheck(tx: Executor, userId: number, id: number, columns: IpCheckColumns): Promise<void> {
  await tx
    .update(ipAddresses)
    .set(columns)
    .where(and(eq(ipAddresses.id, id), eq(ipAddresses.userId, userId)));
}

export async function listIgnoredListIds(ex: Executor, userId: number): Promise<Set<string>> {
  const rows = await ex
    .select({ listId: blocklistIgnores.listId })
    .from(blocklistIgnores)
    .where(eq(blocklistIgnores.userId, userId));
  return new Set(rows.map((r) => r.listId));
}

export async function setListIgnored(tx: Executor, userId: number, listId: string, ignored: boolean): Promise<void> {
  if (ignored) await tx.insert(blocklistIgnores).values({ userId, listId }).onConflictDoNothing();
  else
    await tx
      .delete(blocklistIgnores)
      .where(and(eq(blocklistIgnores.userId, userId), eq(blocklistIgnores.listId, listId)));
}

/** The user's IP address or domain name of that id; undefined for another user's id. */
export async function findTargetName(ex: Executor, userId: number, target: ListingTarget): Promise<string | undefined> {
  if ('domainId' in target) return (await findUserDomain(ex, userId, target.domainId))?.domain;
  const [row] = await ex
    .select({ name: ipAddresses.ipAddress })
    .from(ipAddresses)
    .where(and(eq(ipAddresses.id, target.ipAddressId), eq(ipAddresses.userId, userId)));
  return row?.name;
}

export type ListingTarget = { ipAddressId: number } | { domainId: number };

/** One IP's or domain's listings, latest first. */
export async function listListings(ex: Executor, userId: number, target: ListingTarget): Promise<ListingRow[]> {
  const which =
    'ipAddressId' in target
      ? eq(blocklistListings.ipAddressId, target.ipAddressId)
      : eq(blocklistListings.domainId, target.domainId);
  return ex
    .select()
    .from(blocklistListings)
    .where(and(eq(blocklistListings.userId, userId), which))
    .orderBy(desc(blocklistListings.listedAt), desc(blocklistListings.id));
}

function chunks<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
