import { and, asc, eq, inArray, isNotNull, isNull, lt, lte, ne, or, sql, type SQL } from 'drizzle-orm';
import { metricsWindowStart, percentOf } from '@contracts/figures';
import type { Executor } from '../platform/db/client';
import { listSourceFigures } from '../delivery-events/delivery-events.service';
import { integrations } from '../platform/db/schema/index';

export type IntegrationRow = typeof integrations.$inferSelect;

/** An integration with what it synced: volume and delivery over the last 30 days, and how many days of data. */
export interface IntegrationWithFigures extends IntegrationRow {
  emailsSent: number;
  deliveryRate: number | null;
  dataPoints: number;
}

/** The user's integrations that also match `match`: every reader is held to its own user's rows. */
function selectUserIntegrations(ex: Executor, userId: number, match?: SQL) {
  return ex
    .select()
    .from(integrations)
    .where(and(eq(integrations.userId, userId), match));
}

/** The user's integrations (one when `id` is given), with their figures, by provider. */
export async function listUserIntegrations(
  ex: Executor,
  userId: number,
  id?: number,
): Promise<IntegrationWithFigures[]> {
  const byId = id === undefined ? undefined : eq(integrations.id, id);
  const rows = await selectUserIntegrations(ex, userId, byId).orderBy(asc(integrations.provider));
  const figures = new Map((await listSourceFigures(ex, userId, metricsWindowStart())).map((f) => [f.provider, f]));
  return rows.map((row) => {
    const { sent = 0, delivered = 0, days = 0 } = figures.get(row.provider) ?? {};
    return { ...row, emailsSent: sent, deliveryRate: percentOf(delivered, sent, 3), dataPoints: days };
  });
}

/** The user's own integration, or undefined (another user's id behaves as if it did not exist). */
export async function findUserIntegration(
  ex: Executor,
  userId: number,
  id: number,
): Promise<IntegrationRow | undefined> {
  const [row] = await selectUserIntegrations(ex, userId, eq(integrations.id, id));
  return row;
}

export async function findUserIntegrationByProvider(
  ex: Executor,
  userId: number,
  provider: string,
): Promise<IntegrationRow | undefined> {
  const [row] = await selectUserIntegrations(ex, userId, eq(integrations.provider, provider));
  return row;
}

/** The user's integration of a provider, locked to the end of the transaction (a sign-in provider's import). */
export async function lockUserIntegrationByProvider(
  ex: Executor,
  userId: number,
  provider: string,
): Promise<IntegrationRow | undefined> {
  const [row] = await selectUserIntegrations(ex, userId, eq(integrations.provider, provider)).for('update');
  return row;
}

/**
 * A provider connected through its own sign-in (Google Postmaster Tools), new or connected again: the sealed
 * credentials and config replace the old ones, and its failures and waits are cleared.
 */
export async function saveSignInConnection(
  ex: Executor,
  values: Pick<IntegrationRow, 'userId' | 'provider' | 'type' | 'credentialsEncrypted' | 'config'>,
): Promise<IntegrationRow> {
  const { userId, provider, type, ...given } = values;
  const set = {
    ...given,
    status: 'active' as const,
    lastError: null,
    lastErrorAt: null,
    consecutiveFailures: 0,
    nextSyncAt: null,
    updatedAt: new Date(),
  };
  const [row] = await ex
    .insert(integrations)
    .values({ userId, provider, type, ...set })
    .onConflictDoUpdate({ target: [integrations.userId, integrations.provider], set })
    .returning();
  return row;
}

/** The integration locked to the end of the transaction (a sync's outcome against a concurrent update or uninstall). */
export async function lockIntegration(ex: Executor, id: number): Promise<IntegrationRow | undefined> {
  const [row] = await ex.select().from(integrations).where(eq(integrations.id, id)).for('update');
  return row;
}

export async function findIntegration(ex: Executor, id: number): Promise<IntegrationRow | undefined> {
  const [row] = await ex.select().from(integrations).where(eq(integrations.id, id));
  return row;
}

/** The new integration, or undefined when the user already has one of this provider (the unique index decides). */
export async function insertIntegration(
  ex: Executor,
  values: Pick<IntegrationRow, 'userId' | 'provider' | 'type' | 'status' | 'credentialsEncrypted' | 'config'>,
): Promise<IntegrationRow | undefined> {
  const [row] = await ex
    .insert(integrations)
    .values(values)
    .onConflictDoNothing({ target: [integrations.userId, integrations.provider] })
    .returning();
  return row;
}

export async function updateIntegration(
  ex: Executor,
  id: number,
  set: Partial<Omit<IntegrationRow, 'id' | 'userId' | 'provider' | 'createdAt'>>,
): Promise<IntegrationRow | undefined> {
  const [row] = await ex
    .update(integrations)
    .set({ ...set, updatedAt: sql`now()` })
    .where(eq(integrations.id, id))
    .returning();
  return row;
}

export async function deleteUserIntegration(
  ex: Executor,
  userId: number,
  id: number,
): Promise<IntegrationRow | undefined> {
  const [row] = await ex
    .delete(integrations)
    .where(and(eq(integrations.userId, userId), eq(integrations.id, id)))
    .returning();
  return row;
}

/**
 * Integrations a scheduled sync is due for: installed with credentials, of a provider that has a
 * client, not paused, and past any wait (a provider's Retry-After, the back-off after failures). A provider named
 * in `syncedBefore` is due only when its last sync is older than the time given (a provider synced once a day).
 */
export async function listDueIntegrations(
  ex: Executor,
  providers: string[],
  now: Date,
  limit: number,
  syncedBefore: Record<string, Date> = {},
): Promise<{ id: number; userId: number }[]> {
  if (providers.length === 0) return [];
  return ex
    .select({ id: integrations.id, userId: integrations.userId })
    .from(integrations)
    .where(
      and(
        inArray(integrations.provider, providers),
        inArray(integrations.status, ['active', 'error']),
        isNotNull(integrations.credentialsEncrypted),
        or(isNull(integrations.nextSyncAt), lte(integrations.nextSyncAt, now)),
        ...Object.entries(syncedBefore).map(([provider, before]) =>
          or(ne(integrations.provider, provider), isNull(integrations.lastSyncAt), lt(integrations.lastSyncAt, before)),
        ),
      ),
    )
    .orderBy(sql`${integrations.lastSyncAt} asc nulls first`, asc(integrations.id))
    .limit(limit);
}
