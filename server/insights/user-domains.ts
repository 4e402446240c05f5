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
