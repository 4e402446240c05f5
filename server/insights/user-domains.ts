import { and, desc, eq } from 'drizzle-orm';
import type { Executor } from '../platform/db/client';
import { domains } from '../platform/db/schema/index';

export type DomainRow = typeof domains.$inferSelect;

// A user's domains, read by the domains capability and by the ones that report on a domain (the timeline) without
// depending on the domains capability, which depends on the alerts they feed.
// Every query names the owner: another user's domain id behaves as if it did not exist.

export async function listUserDomains(ex: Executor, userId: number): Promise<DomainRow[]> {
  return ex.select().from(domains).where(eq(domains.userId, userId)).orderBy(desc(domains.createdAt), desc(domains.id));
}

export async function findUserDomain(ex: Executor, userId: number, id: number): Promise<DomainRow | undefined> {
  const [row] = await ex
    .select()
    .from(domains)
    .where(and(eq(domains.id, id), eq(domains.userId, userId)));
  return row;
}

/** Whether `name` is one of the user's domains (an alert rule may watch only those). */
export async function isUserDomain(ex: Executor, userId: number, name: string): Promise<boolean> {
  const [row] = await ex
    .select({ id: domains.id })
    .from(domains)
    .where(and(eq(domains.userId, userId), eq(domains.domain, name)))
    .limit(1);
  return row !== undefined;
}
