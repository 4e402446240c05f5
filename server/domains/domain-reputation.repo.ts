import { and, asc, desc, eq, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import type { ScoreFactor } from '@contracts/reputation';
import type { Executor } from '../platform/db/client';
import { domains } from '../platform/db/schema/index';

// The reputation state a domain row carries (the score and its factors, ADR 023; the RDAP registration), and the
// reads the reputation checks need of a user's domains. The domains capability owns the table (ADR 048); the
// reputation capability computes these figures and stores them through domain-reputation.service.ts.
// Every query but the schedulers' names the owner.

/** The user ids that own at least one domain. */
export async function listDomainOwnerIds(ex: Executor): Promise<number[]> {
  const rows = await ex.selectDistinct({ userId: domains.userId }).from(domains);
  return rows.map((r) => r.userId);
}

export interface DomainTarget {
  id: number;
  domain: string;
}

export async function listDomainTargets(ex: Executor, userId: number): Promise<DomainTarget[]> {
  return ex
    .select({ id: domains.id, domain: domains.domain })
    .from(domains)
    .where(eq(domains.userId, userId))
    .orderBy(domains.id);
}

/** The user's domain rows with their stored reputation and authentication checks, locked until the transaction ends. */
export async function lockDomainRows(tx: Executor, userId: number) {
  return tx
    .select({
      id: domains.id,
      domain: domains.domain,
      reputationScore: domains.reputationScore,
      reputationFactors: domains.reputationFactors,
      spfStatus: domains.spfStatus,
      dkimStatus: domains.dkimStatus,
      dmarcStatus: domains.dmarcStatus,
      checks: domains.checks,
    })
    .from(domains)
    .where(eq(domains.userId, userId))
    .for('update');
}

export async function updateDomainReputation(
  tx: Executor,
  userId: number,
  id: number,
  score: number,
  factors: ScoreFactor[],
): Promise<void> {
  await tx
    .update(domains)
    .set({ reputationScore: score, reputationFactors: factors })
    .where(and(eq(domains.id, id), eq(domains.userId, userId)));
}

/** What the reputation screen shows of each domain. */
export type DomainReputationRow = Pick<
  typeof domains.$inferSelect,
  'id' | 'domain' | 'reputationScore' | 'reputationFactors' | 'registrar' | 'registeredAt' | 'rdapCheckedAt'
>;

export async function listUserDomainReputation(ex: Executor, userId: number): Promise<DomainReputationRow[]> {
  return ex
    .select({
      id: domains.id,
      domain: domains.domain,
      reputationScore: domains.reputationScore,
      reputationFactors: domains.reputationFactors,
      registrar: domains.registrar,
      registeredAt: domains.registeredAt,
      rdapCheckedAt: domains.rdapCheckedAt,
    })
    .from(domains)
    .where(eq(domains.userId, userId))
    .orderBy(desc(domains.createdAt), desc(domains.id));
}

/** Which of `names` are the user's own domains. */
export async function ownDomainNames(ex: Executor, userId: number, names: string[]): Promise<string[]> {
  if (names.length === 0) return [];
  const rows = await ex
    .select({ domain: domains.domain })
    .from(domains)
    .where(and(eq(domains.userId, userId), inArray(domains.domain, names)));
  return rows.map((r) => r.domain);
}

/** A domain's name and last RDAP look-up by id, for its look-up; undefined when it was deleted since. */
export async function findDomainForRegistration(
  ex: Executor,
  id: number,
): Promise<{ domain: string; rdapCheckedAt: Date | null } | undefined> {
  const [row] = await ex
    .select({ domain: domains.domain, rdapCheckedAt: domains.rdapCheckedAt })
    .from(domains)
    .where(eq(domains.id, id));
  return row;
}

/** Domains never looked up in RDAP or looked up before `before`, the oldest first, at most `limit`. */
export async function domainsDueForRegistration(ex: Executor, before: Date, limit: number): Promise<number[]> {
  const rows = await ex
    .select({ id: domains.id })
    .from(domains)
    .where(or(isNull(domains.rdapCheckedAt), lte(domains.rdapCheckedAt, before)))
    .orderBy(sql`${domains.rdapCheckedAt} asc nulls first`, asc(domains.id))
    .limit(limit);
  return rows.map((r) => r.id);
}

/** Stores what RDAP said; a value RDAP did not give keeps what an earlier look-up found. */
export async function saveRegistration(
  ex: Executor,
  id: number,
  found: { registrar: string | null; registeredAt: Date | null },
): Promise<void> {
  await ex
    .update(domains)
    .set({
      registrar: sql`coalesce(${found.registrar}, ${domains.registrar})`,
      registeredAt: sql`coalesce(${found.registeredAt?.toISOString() ?? null}::timestamptz, ${domains.registeredAt})`,
      rdapCheckedAt: new Date(),
    })
    .where(eq(domains.id, id));
}
