import { and, getTableColumns, getTableName, inArray, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Executor } from '../db/client';

/*
 * Durable delivery (ADR 047): the one way an item that must reach somewhere (an outbox mail, a webhook
 * delivery, an alert message, a received message) is claimed, tried, retried and swept. Each capability
 * keeps its own table and its own "do one attempt" code, and describes the table here; pg-boss carries
 * the jobs, but the row is the truth: a lost job loses nothing, because the sweep finds the row again.
 */

/** A table of items to deliver, as the sweep sees it. */
export interface DeliveryTable<T extends PgTable = PgTable> {
  table: T;
  id: PgColumn;
  /**
   * Whose item it is: the sweep takes at most `perAccount` items of one account a round, so an account
   * with thousands waiting cannot starve the others.
   */
  account: PgColumn | SQL;
  /** Oldest first, within an account and across accounts. */
  createdAt: PgColumn;
  /** Still to deliver (neither done nor given up on). */
  pending: SQL;
  /** A pending item nobody is working on should have been picked up by now: its job was lost, or its retry is due. */
  stranded: SQL;
  /** Held until (a claim's lease, or after a failed attempt the time its retry is due); null is free. */
  lockedUntil?: PgColumn;
}

/** A table whose rows are claimed: each claim counts an attempt, and a failed attempt is retried or given up on. */
export interface ClaimedTable<T extends PgTable = PgTable> extends DeliveryTable<T> {
  attempts: PgColumn;
  /** The columns of an item given up on, in the table's own words, with the reason. */
  gaveUp(reason: string): Record<string, unknown>;
  /** The columns of an item whose attempt failed and that waits for its next one (failAttempt). */
  retrying?(reason: string): Record<string, unknown>;
}

/** How often an item is tried and how long it waits between attempts. */
export interface RetryPolicy {
  maxAttempts: number;
  /** The wait after failed attempt `attempt` (1-based) before the next; 0 when the job's own retry does the waiting. */
  backoffSeconds(attempt: number): number;
}

/** base, base x factor, base x factor^2, ... seconds. */
export function exponentialBackoff(baseSeconds: number, factor: number): (attempt: number) => number {
  return (attempt) => baseSeconds * factor ** (attempt - 1);
}

/** Whether attempt number `attempt` (1-based) may run at all. */
export function attemptAllowed(policy: RetryPolicy, attempt: number): boolean {
  return attempt <= policy.maxAttempts;
}

/** After attempt `attempt` failed: the seconds to wait before the next, or null when it was the last one. */
export function nextRetry(policy: RetryPolicy, attempt: number, permanent = false): number | null {
  if (permanent || !attemptAllowed(policy, attempt + 1)) return null;
  return policy.backoffSeconds(attempt);
}

function keyOf(table: PgTable, column: PgColumn): string {
  const entry = Object.entries(getTableColumns(table)).find(([, c]) => c === column);
  if (!entry) throw new Error(`column ${column.name} is not a column of its table`);
  return entry[0];
}

function free(lockedUntil: PgColumn | undefined): SQL | undefined {
  return lockedUntil && or(isNull(lockedUntil), lt(lockedUntil, sql`now()`));
}

function until(seconds: number): SQL | null {
  return seconds > 0 ? sql`now() + make_interval(secs => ${seconds})` : null;
}

/**
 * Claims a pending item nobody holds, counting the attempt, and (where the table has a lease) holds it
 * for `leaseSeconds`: two workers never work one item, and a worker that died frees it when the lease
 * runs out. Undefined when it is done, given up on, or held.
 */
export async function claimItem<T extends PgTable>(
  ex: Executor,
  q: ClaimedTable<T>,
  id: number,
  leaseSeconds = 0,
): Promise<T['$inferSelect'] | undefined> {
  const set: Record<string, unknown> = { [keyOf(q.table, q.attempts)]: sql`${q.attempts} + 1` };
  if (q.lockedUntil) set[keyOf(q.table, q.lockedUntil)] = until(leaseSeconds);
  const rows = (await ex
    .update(q.table)
    .set(set as never)
    .where(and(sql`${q.id} = ${id}`, q.pending, free(q.lockedUntil)))
    .returning()) as T['$inferSelect'][];
  return rows[0];
}

/** Gives an item up, recording why; its lease is freed. */
export async function giveUp(ex: Executor, q: ClaimedTable, id: number, reason: string): Promise<void> {
  const set: Record<string, unknown> = { ...q.gaveUp(reason) };
  if (q.lockedUntil) set[keyOf(q.table, q.lockedUntil)] = null;
  await ex
    .update(q.table)
    .set(set as never)
    .where(sql`${q.id} = ${id}`);
}

/**
 * A failed attempt: given up on after the policy's last attempt (or at once when the failure is
 * permanent), otherwise held until its retry is due, when the sweep (or the job's own retry) takes it.
 */
export async function failAttempt(
  ex: Executor,
  q: ClaimedTable,
  policy: RetryPolicy,
  item: { id: number; attempts: number },
  reason: string,
  permanent = false,
): Promise<'retrying' | 'failed'> {
  const wait = nextRetry(policy, item.attempts, permanent);
  if (wait === null) {
    await giveUp(ex, q, item.id, reason);
    return 'failed';
  }
  const set: Record<string, unknown> = { ...q.retrying?.(reason) };
  if (q.lockedUntil) set[keyOf(q.table, q.lockedUntil)] = until(wait);
  await ex
    .update(q.table)
    .set(set as never)
    .where(sql`${q.id} = ${item.id}`);
  return 'retrying';
}

/** How much one sweep round takes: at most `limit` items, at most `perAccount` of them from one account. */
export interface SweepLimits {
  limit: number;
  perAccount: number;
}

/**
 * The ids of stranded items (pending, free, and overdue by the table's own measure), oldest first across
 * accounts, at most `perAccount` of one account: the caller queues a job for each.
 */
export async function findStranded(ex: Executor, q: DeliveryTable, limits: SweepLimits): Promise<number[]> {
  const where = and(q.pending, q.stranded, free(q.lockedUntil));
  const { rows } = await ex.execute<{ id: number }>(sql`
    SELECT id FROM (
      SELECT ${q.id} AS id, ${q.createdAt} AS created,
             row_number() OVER (PARTITION BY ${q.account} ORDER BY ${q.createdAt}, ${q.id}) AS nth
      FROM ${q.table} WHERE ${where}
    ) due
    WHERE nth <= ${limits.perAccount}
    ORDER BY created, id
    LIMIT ${limits.limit}`);
  return rows.map((r) => Number(r.id));
}

/*
 * Fair claims (ADR 051): where one account's items must not hold up the others' (webhook deliveries,
 * whose receivers can take seconds each), an attempt is started only while its account and its
 * endpoint have fewer than their limit in flight. An item over a limit is put back to wait, with no job
 * and no attempt counted, and a finished attempt wakes the waiting items its slot frees: the worker's
 * other slots go to other accounts, and nobody spins on an item that cannot start yet.
 */

/** A table whose attempts run under in-flight limits. */
export interface FairTable<T extends PgTable = PgTable> extends DeliveryTable<T> {
  /** The lease of an attempt in flight; the limits count the items whose lease runs. */
  lockedUntil: PgColumn;
  /** Set while an item waits for a free slot, with no job queued for it. */
  waitingSince: PgColumn;
  /** Which waiting items go first (ascending), before age: alerts before bulk notifications. */
  precedence: SQL;
  /** Whether a waiting item may be woken now (not held back by its own table's reasons, such as a paused endpoint). */
  wakeable: SQL;
}

/** At most `max` items in flight among those sharing `key`'s value (an account, an endpoint). */
export interface InFlightLimit {
  key: PgColumn;
  max: number;
}

type KeyValues = (string | number)[];

async function keyValuesOf(ex: Executor, q: FairTable, id: number, limits: InFlightLimit[]): Promise<KeyValues | null> {
  const columns = limits.map((l, i) => sql`${l.key} AS ${sql.identifier(`k${i}`)}`);
  const { rows } = await ex.execute<Record<string, string | number>>(
    sql`SELECT ${sql.join(columns, sql`, `)} FROM ${q.table} WHERE ${q.id} = ${id}`,
  );
  return rows[0] ? limits.map((_, i) => rows[0]![`k${i}`]!) : null;
}

/** Claims and releases of one account or endpoint take turns, so a count of its items in flight stays true until it commits. */
async function lockKeys(ex: Executor, q: FairTable, limits: InFlightLimit[], values: KeyValues): Promise<void> {
  for (const [i, limit] of limits.entries()) {
    const name = `${getTableName(q.table)}.${limit.key.name}:`;
    await ex.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended(${name} || ${String(values[i])}, 0))`);
  }
}

async function countInFlight(ex: Executor, q: FairTable, key: PgColumn, value: string | number): Promise<number> {
  const { rows } = await ex.execute<{ n: number }>(
    sql`SELECT count(*)::int AS n FROM ${q.table} WHERE ${key} = ${value} AND ${q.lockedUntil} > now()`,
  );
  return rows[0]?.n ?? 0;
}

/**
 * Leases a pending item nobody holds for `leaseSeconds` (no attempt is counted: the caller records its
 * attempt) when every limit has room; otherwise puts it back to wait ('waiting'). Undefined when it is
 * done, given up on, held, or gone.
 */
export async function claimWithinLimits<T extends PgTable>(
  ex: Executor,
  q: FairTable<T>,
  id: number,
  leaseSeconds: number,
  limits: InFlightLimit[],
): Promise<T['$inferSelect'] | 'waiting' | undefined> {
  return ex.transaction(async (tx) => {
    const values = await keyValuesOf(tx, q, id, limits);
    if (!values) return undefined;
    await lockKeys(tx, q, limits, values);
    const claimable = and(sql`${q.id} = ${id}`, q.pending, free(q.lockedUntil));
    for (const [i, limit] of limits.entries()) {
      if ((await countInFlight(tx, q, limit.key, values[i]!)) < limit.max) continue;
      const parked = await parkItem(tx, q, id);
      return parked ? 'waiting' : undefined;
    }
    const rows = (await tx
      .update(q.table)
      .set({ [keyOf(q.table, q.lockedUntil)]: until(leaseSeconds), [keyOf(q.table, q.waitingSince)]: null } as never)
      .where(claimable)
      .returning()) as T['$inferSelect'][];
    return rows[0];
  });
}

/** Puts a pending item nobody holds back to wait, with no attempt counted; false when it is not there to park. */
export async function parkItem(ex: Executor, q: FairTable, id: number): Promise<boolean> {
  const rows = await ex
    .update(q.table)
    .set({ [keyOf(q.table, q.waitingSince)]: sql`coalesce(${q.waitingSince}, now())` } as never)
    .where(and(sql`${q.id} = ${id}`, q.pending, free(q.lockedUntil)))
    .returning({ id: q.id });
  return rows.length > 0;
}

/**
 * Ends an item's lease once its attempt is recorded, and wakes as many waiting items of the same first
 * limit's key (its account) as that limit now has room for: their ids, for the caller to queue.
 */
export async function releaseItem(ex: Executor, q: FairTable, id: number, limits: InFlightLimit[]): Promise<number[]> {
  return ex.transaction(async (tx) => {
    const values = await keyValuesOf(tx, q, id, limits);
    if (!values) return [];
    await lockKeys(tx, q, limits, values);
    await tx
      .update(q.table)
      .set({ [keyOf(q.table, q.lockedUntil)]: null } as never)
      .where(sql`${q.id} = ${id}`);
    const [first] = limits;
    if (!first) return [];
    const room = first.max - (await countInFlight(tx, q, first.key, values[0]!));
    return wakeWaiting(tx, q, sql`${first.key} = ${values[0]}`, room);
  });
}

/**
 * Takes up to `count` waiting items within `scope` off the wait, first by precedence, then oldest: their ids
 * in that order, for the caller to queue (the first queued is the first to claim the free slot).
 */
export async function wakeWaiting(ex: Executor, q: FairTable, scope: SQL, count: number): Promise<number[]> {
  if (count <= 0) return [];
  return ex.transaction(async (tx) => {
    // Chosen, then updated: an UPDATE returns its rows in no particular order.
    const { rows } = await tx.execute<{ id: number }>(sql`SELECT ${q.id} AS id FROM ${q.table}
      WHERE ${q.waitingSince} IS NOT NULL AND ${q.pending} AND ${q.wakeable} AND ${scope}
      ORDER BY ${q.precedence}, ${q.createdAt}, ${q.id} LIMIT ${count} FOR UPDATE SKIP LOCKED`);
    const ids = rows.map((r) => Number(r.id));
    if (ids.length > 0)
      await tx
        .update(q.table)
        .set({ [keyOf(q.table, q.waitingSince)]: null } as never)
        .where(inArray(q.id, ids));
    return ids;
  });
}
