import { and, eq, gte, lte, notInArray, sql } from 'drizzle-orm';
import type { Executor } from '../platform/db/client';
import { emailMetrics } from '../platform/db/schema/index';
import { writeOwnDayFigures, type DayFigures } from './delivery-events.repo';

// A source's figures by name (an ESP plugin's): what the integrations list shows of it, and the days its syncs
// write over or its uninstall removes.

/** A source's volume and delivery since a day, and how many days of figures it has in all. */
export interface SourceFigures {
  provider: string;
  sent: number;
  delivered: number;
  days: number;
}

/**
 * The user's figures by source. Per UTC day, a source whose plugin synced the day ('' mailbox provider and sending
 * IP) counts those figures only; its MTA or webhook event rows of the same day (per mailbox provider and IP) are the
 * same messages and are left out. Otherwise the event rows are summed.
 */
export async function listSourceFigures(ex: Executor, userId: number, since: string): Promise<SourceFigures[]> {
  const own = sql`(${emailMetrics.mailboxProvider} = '' and ${emailMetrics.sendingIp} = '')`;
  const figure = (column: typeof emailMetrics.emailsSent | typeof emailMetrics.delivered, name: string) =>
    sql<number>`(case when bool_or(${own}) then coalesce(sum(${column}) filter (where ${own}), 0) else coalesce(sum(${column}), 0) end)::int`.as(
      name,
    );
  const days = ex
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
  const recent = sql`${days.date} >= ${since}`;
  return ex
    .select({
      provider: days.provider,
      sent: sql<number>`coalesce(sum(${days.sent}) filter (where ${recent}), 0)::int`,
      delivered: sql<number>`coalesce(sum(${days.delivered}) filter (where ${recent}), 0)::int`,
      days: sql<number>`count(${days.date})::int`,
    })
    .from(days)
    .groupBy(days.provider);
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
export async function deletePluginFigures(ex: Executor, userId: number, provider: string): Promise<number> {
  const rows = await ex.delete(emailMetrics).where(pluginRows(userId, provider)).returning({ id: emailMetrics.id });
  return rows.length;
}

/**
 * The provider's figures for the days from `from` to `to` become exactly `days`: each day's row is
 * written over (not added to), and a day the provider no longer lists in that window is removed.
 */
export async function replacePluginFigures(
  ex: Executor,
  userId: number,
  provider: string,
  from: string,
  to: string,
  days: (DayFigures & { date: string })[],
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
  await writeOwnDayFigures(ex, userId, provider, days);
}
