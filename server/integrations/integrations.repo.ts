import { and, asc, eq, gte, inArray, isNotNull, isNull, lt, lte, ne, notInArray, or, sql } from 'drizzle-orm';
import { metricsWindowStart, percentOf } from '@contracts/figures';
import type { Executor } from '../platform/db/client';
import { writeOwnDayFigures } from '../delivery-events/delivery-events.service';
import { emailMetrics, integrations } from '../platform/db/schema/index';
import type { DailyStats } from './providers/provider';

export type IntegrationRow = typeof integrations.$inferSelect;

/** An integration with what it synced: volume and delivery over the last 30 days, and how many days of data. */
export interface IntegrationWithFigures extends IntegrationRow {
  emailsSent: number;
  deliveryRate: number | null;
  dataPoints: number;
}

/**
 * One row per provider and UTC day of the user's figures. A provider whose plugin synced a day
 * ('' mailbox provider and sending IP) counts those figures only; its MTA or webhook event rows of
 * the same day (per mailbox provider and IP) are the same messages and are left out. Otherwise the
 * event rows are summed.
 */
function providerDays(ex: Executor, userId: number) {
  const own = sql`(${emailMetrics.mailboxProvider} = '' and ${emailMetrics.sendingIp} = '')`;
  const figure = (column: typeof emailMetrics.emailsSent | typeof emailMetrics.delivered, name: string) =>
    sql<number>`(case when bool_or(${own}) then coalesce(sum(${column}) filter (where ${own}), 0) else coalesce(sum(${column}), 0) end)::int`.as(
      name,
    );
  return ex
    .select({
      provider: emailMetrics.provider,
      date: emailMetrics.date,
      sent: figure(emailMetrics.emailsSent, 'sent'),
      delivered: figure(emailMetrics.delivered, 'delivered'),
    })
    .from(emailMetrics)
    .where(eq(emailMetrics.userId, userId))
    .groupBy(emailMetrics.provider, emailMetrics.date)
    .as('provider_days');
}

/** The user's integrations (one when `id` is given), with their figures, by provider. */
export async function listUserIntegrations(
  ex: Executor,
  userId: number,
  id?: number,
): Promise<IntegrationWithFigures[]> {
  const days = providerDays(ex, userId);
  const recent = sql`${days.date} >= ${metricsWindowStart()}`;
  const rows = await ex
    .select({
      row: integrations,
      sent30: sql<number>`coalesce(sum(${days.sent}) filter (where ${recent}), 0)::int`,
      delivered30: sql<number>`coalesce(sum(${days.delivered}) filter (where ${recent}), 0)::int`,
      days: sql<number>`count(${days.date})::int`,
    })
    .from(integrations)
    .leftJoin(days, eq(days.provider, integrations.provider))
    .where(
      id === undefined
        ? eq(integrations.userId, userId)
        : and(eq(integrations.userId, userId), eq(integrations.id, id)),
    )
    .groupBy(integrations.id)
    .orderBy(asc(integrations.provider));
  return rows.map(({ row, sent30, delivered30, days: count }) => ({
    ...row,
    emailsSent: sent30,
    deliveryRate: percentOf(delivered30, sent30, 3),
    dataPoints: count,
  }));
}

/** The user's own integration, or undefined (another user's id behaves as if it did not exist). */
export async function findUserIntegration(
  ex: Executor,
  userId: number,
  id: number,
): Promise<IntegrationRow | undefined> {
  const [row] = await ex
    .select()
    .from(integrations)
    .where(and(eq(integrations.userId, userId), eq(integrations.id, id)));
  return row;
}

export async function findUserIntegrationByProvider(
  ex: Executor,
  userId: number,
  provider: string,
): Promise<IntegrationRow | undefined> {
  const [row] = await ex
    .select()
    .from(integrations)
    .where(and(eq(integrations.userId, userId), eq(integrations.provider, provider)));
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

/** A plugin's own figures: ESP statistics know neither mailbox provider nor sending IP (MTA events, kept under their own, are left alone). */
const pluginRows = (userId: number, provider: string) =>
  and(
    eq(emailMetrics.userId, userId),
    eq(emailMetrics.provider, provider),
    eq(emailMetrics.mailboxProvider, ''),
    eq(emailMetrics.sendingIp, ''),
  );

/** Deletes the daily figures a plugin synced; how many rows went. */
export async function deletePluginMetrics(ex: Executor, userId: number, provider: string): Promise<number> {
  const rows = await ex.delete(emailMetrics).where(pluginRows(userId, provider)).returning({ id: emailMetrics.id });
  return rows.length;
}

/**
 * The provider's figures for the days from `from` to `to` become exactly `days`: each day's row is
 * written over (not added to), and a day the provider no longer lists in that window is removed.
 */
export async function replacePluginMetrics(
  ex: Executor,
  userId: number,
  provider: string,
  from: string,
  to: string,
  days: DailyStats[],
): Promise<void> {
  const listed = days.map((d) => d.date);
  await ex
    .delete(emailMetrics)
    .where(
      and(
        pluginRows(userId, provider),
        gte(emailMetrics.date, from),
        lte(emailMetrics.date, to),
        ...(listed.length > 0 ? [notInArray(emailMetrics.date, listed)] : []),
      ),
    );
  await writeOwnDayFigures(
    ex,
    userId,
    provider,
    days.map(({ sent, ...rest }) => ({ emailsSent: sent, ...rest })),
  );
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
