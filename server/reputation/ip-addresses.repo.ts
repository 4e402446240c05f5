import { and, desc, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { Executor } from '../platform/db/client';
import { blocklistIgnores, blocklistResults, ipAddresses } from '../platform/db/schema/index';

export type IpAddressRow = typeof ipAddresses.$inferSelect;
export type NewIpAddress = Pick<typeof ipAddresses.$inferInsert, 'ipAddress' | 'label' | 'type' | 'associatedDomains'>;

/** One list's latest answer for one of the user's IPs or domains, with the user's ignore switch for that list. */
export interface ResultRow {
  ipAddressId: number | null;
  domainId: number | null;
  listId: string;
  status: 'listed' | 'clear' | 'unknown';
  answers: string[];
  reason: string | null;
  txt: string | null;
  checkedAt: Date;
  ignored: boolean;
}

// Every query names the owner: another user's IP id behaves as if it did not exist.

export async function listUserIps(ex: Executor, userId: number): Promise<IpAddressRow[]> {
  return ex
    .select()
    .from(ipAddresses)
    .where(eq(ipAddresses.userId, userId))
    .orderBy(desc(ipAddresses.createdAt), desc(ipAddresses.id));
}

/** One answer as PostgreSQL writes it in JSON: list, status, answers, reason, TXT, checked at (ISO, UTC), ignored. */
type AnswerJson = [string, ResultRow['status'], string[], string | null, string | null, string, boolean];

/**
 * The latest answers for all the user's IPs (target 'ip') or domains ('domain') in one query, so a
 * list of many IPs costs one round trip, not one per IP. Each target's answers come as one JSON
 * array, read with JSON.parse: 400 IPs asked of 37 lists are 14,800 answers, and decoding them as
 * rows, column by column, took about 100 ms of node CPU a call, against 45 so (PostgreSQL's share
 * grows from 10 to 36 ms: less work in all, and the event loop is free twice as soon).
 */
export async function listUserResults(ex: Executor, userId: number, target: 'ip' | 'domain'): Promise<ResultRow[]> {
  const key = target === 'ip' ? blocklistResults.ipAddressId : blocklistResults.domainId;
  const rows = await ex
    .select({
      id: key,
      answers: sql<AnswerJson[]>`json_agg(json_build_array(${blocklistResults.listId}, ${blocklistResults.status},
        ${blocklistResults.answers}, ${blocklistResults.reason}, ${blocklistResults.txt},
        to_char(${blocklistResults.checkedAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
        ${blocklistIgnores.listId} is not null))`,
    })
    .from(blocklistResults)
    .leftJoin(
      blocklistIgnores,
      and(eq(blocklistIgnores.userId, blocklistResults.userId), eq(blocklistIgnores.listId, blocklistResults.listId)),
    )
    .where(and(eq(blocklistResults.userId, userId), isNotNull(key)))
    .groupBy(key);
  return rows.flatMap(({ id, answers }) =>
    answers.map(([listId, status, answered, reason, txt, checkedAt, ignored]) => ({
      ipAddressId: target === 'ip' ? id : null,
      domainId: target === 'domain' ? id : null,
      listId,
      status,
      answers: answered,
      reason,
      txt,
      checkedAt: new Date(checkedAt),
      ignored,
    })),
  );
}

/**
 * Inserts the addresses in one statement; the ones the user already monitors are left out. Returns
 * the rows inserted: fewer than given means some were monitored already.
 */
export async function insertIps(ex: Executor, userId: number, rows: NewIpAddress[]): Promise<IpAddressRow[]> {
  if (rows.length === 0) return [];
  return ex
    .insert(ipAddresses)
    .values(rows.map((row) => ({ ...row, userId })))
    .onConflictDoNothing({ target: [ipAddresses.userId, ipAddresses.ipAddress] })
    .returning();
}

/** How many IPs the user monitors, counted under a per-user lock held to the end of the transaction (two adds at once count one after the other). */
export async function countUserIpsLocked(ex: Executor, userId: number): Promise<number> {
  await ex.execute(sql`select pg_advisory_xact_lock(hashtext('ip-addresses'), ${userId})`);
  const [row] = await ex
    .select({ n: sql<number>`count(*)::int` })
    .from(ipAddresses)
    .where(eq(ipAddresses.userId, userId));
  return row?.n ?? 0;
}

/** Whether the IP was there to delete. */
export async function deleteUserIp(ex: Executor, userId: number, id: number): Promise<boolean> {
  const rows = await ex
    .delete(ipAddresses)
    .where(and(eq(ipAddresses.id, id), eq(ipAddresses.userId, userId)))
    .returning({ id: ipAddresses.id });
  return rows.length > 0;
}

/** Which of `ips` the user monitors already. */
export async function monitoredAmong(ex: Executor, userId: number, ips: string[]): Promise<string[]> {
  if (ips.length === 0) return [];
  const rows = await ex
    .select({ ip: ipAddresses.ipAddress })
    .from(ipAddresses)
    .where(and(eq(ipAddresses.userId, userId), inArray(ipAddresses.ipAddress, ips)));
  return rows.map((r) => r.ip);
}
