import { and, count, eq } from 'drizzle-orm';
import { randomBytes } from 'node:crypto';
import type { Executor } from '../platform/db/client';
import { isSameOrSubdomain } from '../platform/db/domain-match';
import { domains } from '../platform/db/schema/index';

import { findUserDomain, type DomainRow } from '../insights/user-domains';

export { findUserDomain, listUserDomains, type DomainRow } from '../insights/user-domains';

// Every query of a user's request names the owner: another user's domain id behaves as if it did not
// exist. The checks job and mailed DMARC reports, at the end, work across users.

/** A new domain with a fresh ownership token; undefined when the user already has this name. */
export async function insertDomain(
  ex: Executor,
  userId: number,
  name: string,
  type: DomainRow['type'] = 'sending',
): Promise<DomainRow | undefined> {
  const [row] = await ex
    .insert(domains)
    .values({ userId, domain: name, type, verificationToken: randomBytes(16).toString('hex') })
    .onConflictDoNothing({ target: [domains.userId, domains.domain] })
    .returning();
  return row;
}

/** How many domains the user has. */
export async function countUserDomains(ex: Executor, userId: number): Promise<number> {
  const [row] = await ex.select({ n: count() }).from(domains).where(eq(domains.userId, userId));
  return row?.n ?? 0;
}

export interface DomainChanges {
  dkimSelectors?: string[];
  notes?: string | null;
}

/** Undefined when the user has no such domain; no changes just reads it. */
export async function updateUserDomain(
  ex: Executor,
  userId: number,
  id: number,
  changes: DomainChanges,
): Promise<DomainRow | undefined> {
  if (Object.values(changes).every((value) => value === undefined)) return findUserDomain(ex, userId, id);
  const [row] = await ex
    .update(domains)
    .set(changes)
    .where(and(eq(domains.id, id), eq(domains.userId, userId)))
    .returning();
  return row;
}

/** Whether the domain was there to delete. */
export async function deleteUserDomain(ex: Executor, userId: number, id: number): Promise<boolean> {
  const rows = await ex
    .delete(domains)
    .where(and(eq(domains.id, id), eq(domains.userId, userId)))
    .returning({ id: domains.id });
  return rows.length > 0;
}

/** Whether the user has a domain that passes its DNS checks. */
export async function hasHealthyDomain(ex: Executor, userId: number): Promise<boolean> {
  const [row] = await ex
    .select({ id: domains.id })
    .from(domains)
    .where(and(eq(domains.userId, userId), eq(domains.status, 'healthy')))
    .limit(1);
  return row !== undefined;
}

/** A domain by id alone, for the checks job; undefined when it was deleted since. */
export async function findDomainById(ex: Executor, id: number): Promise<DomainRow | undefined> {
  const [row] = await ex.select().from(domains).where(eq(domains.id, id));
  return row;
}

/** Every domain's id, for the hourly checks. */
export async function listDomainIds(ex: Executor): Promise<number[]> {
  const rows = await ex.select({ id: domains.id }).from(domains);
  return rows.map((r) => r.id);
}

export type DomainCheckOutcome = Pick<
  typeof domains.$inferInsert,
  | 'status'
  | 'isVerified'
  | 'spfRecord'
  | 'dkimRecord'
  | 'dmarcRecord'
  | 'spfStatus'
  | 'dkimStatus'
  | 'dmarcStatus'
  | 'checks'
  | 'lastCheckedAt'
>;

/** Stores the outcome of a domain's checks. */
export async function saveDomainChecks(ex: Executor, id: number, outcome: DomainCheckOutcome): Promise<DomainRow> {
  const [row] = await ex.update(domains).set(outcome).where(eq(domains.id, id)).returning();
  return row;
}

/** The users who verified `domain` or a parent domain of it: the ones mailed DMARC reports for it go to. */
export async function verifiedOwnersOf(ex: Executor, domain: string): Promise<number[]> {
  const rows = await ex
    .selectDistinct({ userId: domains.userId })
    .from(domains)
    .where(and(eq(domains.isVerified, true), isSameOrSubdomain(domain, domains.domain)));
  return rows.map((r) => r.userId);
}
