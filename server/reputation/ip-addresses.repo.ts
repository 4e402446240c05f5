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

/**
 * The latest answers for all the user's IPs (target 'ip') or domains ('domain') in one query, so a
 * list of many IPs costs one round trip, not one per IP.
 */
export async function listUserResults(ex: Executor, userId: number, target: 'ip' | 'domain'): Promise<ResultRow[]> {
  return ex
    .select({
      ipAddressId: blocklistResults.ipAddressId,
      domainId: blocklistResults.domainId,
      listId: blocklistResults.listId,
      status: blocklistResults.status,
      answers: blocklistResults.answers,
      reason: blocklistResults.reason,
      txt: blocklistResults.txt,
      checkedAt: blocklistResults.checkedAt,
      ignored: sql<boolean>`${blocklistIgnores.listId} is not null`,
    })
    .from(blocklistResults)
    .leftJoin(
      blocklistIgnores,
      and(eq(blocklistIgnores.userId, blocklistResults.userId), eq(blocklistIgnores.listId, blocklistResults.listId)),
    )
    .where(
      and(
        eq(blocklistResults.userId, userId),
        isNotNull(target === 'ip' ? blocklistResults.ipAddressId : blocklistResults.domainId),
      ),
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
