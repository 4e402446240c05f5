import { and, eq, exists, inArray, isNull, notInArray, sql } from 'drizzle-orm';
import type { Db, Executor } from '../../platform/db/client';
import { inboxTestPlacements, inboxTests, seedMailboxes } from '../../platform/db/schema/index';
import type { SeedFind } from './seed-mailbox';

// The seed network's queries: seed_mailboxes kept in step with the seed network file, and the
// placements of running tests that the seed poll resolves.

export type SeedRow = typeof seedMailboxes.$inferSelect;
export type SeedValues = Omit<typeof seedMailboxes.$inferInsert, 'id' | 'updatedAt'>;

export async function listSeedMailboxes(ex: Executor): Promise<SeedRow[]> {
  return ex.select().from(seedMailboxes);
}

/** Adds the seed, or replaces the one with its address; either way updated now. */
export async function upsertSeedMailbox(ex: Executor, seed: SeedValues): Promise<void> {
  const values = { ...seed, updatedAt: sql`now()` };
  await ex.insert(seedMailboxes).values(values).onConflictDoUpdate({ target: seedMailboxes.address, set: values });
}

/** Deactivates the active seeds whose address is not in `addresses` (all of them when it is empty); returns how many. */
export async function deactivateSeedsNotIn(ex: Executor, addresses: string[]): Promise<number> {
  const rows = await ex
    .update(seedMailboxes)
    .set({ active: false, updatedAt: sql`now()` })
    .where(
      and(eq(seedMailboxes.active, true), addresses.length ? notInArray(seedMailboxes.address, addresses) : undefined),
    )
    .returning({ id: seedMailboxes.id });
  return rows.length;
}

export interface PendingSeedPlacement {
  id: number;
  testId: number;
  seed: SeedRow;
  /** Whether the seed may be polled now (no backoff after failures, or it has run out). */
  due: boolean;
}

/** The placements of running tests still waiting for their seed, with the seed. */
export async function findPendingSeedPlacements(ex: Executor): Promise<PendingSeedPlacement[]> {
  return ex
    .select({
      id: inboxTestPlacements.id,
      testId: inboxTestPlacements.testId,
      seed: seedMailboxes,
      due: sql<boolean>`${seedMailboxes.nextPollAt} is null or ${seedMailboxes.nextPollAt} <= now()`,
    })
    .from(inboxTestPlacements)
    .innerJoin(inboxTests, eq(inboxTests.id, inboxTestPlacements.testId))
    .innerJoin(seedMailboxes, eq(seedMailboxes.id, inboxTestPlacements.seedId))
    .where(and(eq(inboxTests.status, 'running'), isNull(inboxTestPlacements.placement)));
}

/** These placements, those still pending, become missing with `note`; returns how many. */
export async function markPlacementsMissing(ex: Executor, placementIds: number[], note: string): Promise<number> {
  const rows = await ex
    .update(inboxTestPlacements)
    .set({ placement: 'missing', note })
    .where(and(inArray(inboxTestPlacements.id, placementIds), isNull(inboxTestPlacements.placement)))
    .returning({ id: inboxTestPlacements.id });
  return rows.length;
}

/** Where the seed found the message, only while the placement is still pending; whether it was. */
export async function recordPlacementFound(ex: Executor, placementId: number, find: SeedFind): Promise<boolean> {
  const rows = await ex
    .update(inboxTestPlacements)
    .set({ placement: find.placement, folder: find.folder, tab: find.tab, foundAt: sql`now()` })
    .where(and(eq(inboxTestPlacements.id, placementId), isNull(inboxTestPlacements.placement)))
    .returning({ id: inboxTestPlacements.id });
  return rows.length > 0;
}

/** A failed poll: counted, its error kept, and the next poll put off (firstSeconds, doubling, up to maxSeconds). */
export async function recordSeedFailure(
  ex: Executor,
  seedId: number,
  lastError: string,
  backoff: { firstSeconds: number; maxSeconds: number },
): Promise<void> {
  await ex
    .update(seedMailboxes)
    .set({
      consecutiveFailures: sql`${seedMailboxes.consecutiveFailures} + 1`,
      lastError,
      // 30 s, 1 min, 2 min, ... up to 10 min: the old count n-1 is what SET sees.
      nextPollAt: sql`now() + least(${backoff.firstSeconds} * power(2, ${seedMailboxes.consecutiveFailures}), ${backoff.maxSeconds}) * interval '1 second'`,
    })
    .where(eq(seedMailboxes.id, seedId));
}

/** A poll that answered: the failure count, error and backoff are cleared. */
export async function recordSeedPolled(ex: Executor, seedId: number): Promise<void> {
  await ex
    .update(seedMailboxes)
    .set({ consecutiveFailures: 0, lastError: null, nextPollAt: null, lastPolledAt: sql`now()` })
    .where(eq(seedMailboxes.id, seedId));
}

/** Running tests with seed placements: how many are pending, and whether `windowMinutes` since the message arrived have passed. */
export async function findRunningSeedTests(
  db: Db,
  windowMinutes: number,
): Promise<{ id: number; userId: number; pending: number; windowPassed: boolean }[]> {
  return db
    .select({
      id: inboxTests.id,
      userId: inboxTests.userId,
      // Qualified by hand: drizzle leaves columns of a one-table select unqualified, and a bare "id" would name p.id.
      pending: sql<number>`(select count(*)::int from ${inboxTestPlacements} p where p.test_id = ${inboxTests}.id and p.placement is null)`,
      windowPassed: sql<boolean>`coalesce(${inboxTests.receivedAt}, ${inboxTests.createdAt}) + make_interval(mins => ${windowMinutes}) <= now()`,
    })
    .from(inboxTests)
    .where(
      and(
        eq(inboxTests.status, 'running'),
        exists(
          db
            .select({ one: sql`1` })
            .from(inboxTestPlacements)
            .where(and(eq(inboxTestPlacements.testId, inboxTests.id), eq(inboxTestPlacements.isAnalyser, false))),
        ),
      ),
    );
}

/** The test's pending placements without a note take their seed's last error, when its last poll failed. */
export async function noteSeedErrors(ex: Executor, testId: number): Promise<void> {
  await ex
    .update(inboxTestPlacements)
    .set({
      note: sql`(select s.last_error from ${seedMailboxes} s where s.id = ${inboxTestPlacements}.seed_id and s.consecutive_failures > 0)`,
    })
    .where(
      and(
        eq(inboxTestPlacements.testId, testId),
        isNull(inboxTestPlacements.placement),
        isNull(inboxTestPlacements.note),
      ),
    );
}
