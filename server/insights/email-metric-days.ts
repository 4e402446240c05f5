import type { DayVolumes } from '@contracts/figures';
import { and, eq, gte, lte, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { Executor } from '../platform/db/client';
import { emailMetrics } from '../platform/db/schema/index';

/**
 * email_metrics read the one way every reader needs it: one row per provider and UTC day. A day of
 * a provider has several rows (MTA events are kept per mailbox provider and sending IP; an ESP's
 * synced statistics are one row under '' for both). When a provider has both for a day (an ESP whose
 * plugin syncs and whose webhooks post events too), its own statistics count and the event rows are
 * left out: the same messages must not be counted twice. Otherwise the rows are summed.
 */
/** `from` and `to` are days (YYYY-MM-DD) or SQL for one (current_date - 6), both inclusive. */
export function emailMetricDays(ex: Executor, userId: number, range: { from?: string | SQL; to?: string | SQL } = {}) {
  const own = sql`(${emailMetrics.mailboxProvider} = '' and ${emailMetrics.sendingIp} = '')`;
  const figure = (column: SQLWrapper, name: string) =>
    sql<number>`(case when bool_or(${own}) then coalesce(sum(${column}) filter (where ${own}), 0) else coalesce(sum(${column}), 0) end)::int`.as(
      name,
    );
  const where = [eq(emailMetrics.userId, userId)];
  if (range.from) where.push(gte(emailMetrics.date, range.from));
  if (range.to) where.push(lte(emailMetrics.date, range.to));
  return ex
    .select({
      // The day's first row: a stable id for the provider and day.
      id: sql<number>`min(${emailMetrics.id})::int`.as('id'),
      provider: emailMetrics.provider,
      date: emailMetrics.date,
      emailsSent: figure(emailMetrics.emailsSent, 'emails_sent'),
      delivered: figure(emailMetrics.delivered, 'delivered'),
      bounced: figure(emailMetrics.bounced, 'bounced'),
      hardBounces: figure(emailMetrics.hardBounces, 'hard_bounces'),
      softBounces: figure(emailMetrics.softBounces, 'soft_bounces'),
      deferred: figure(emailMetrics.deferred, 'deferred'),
      complaints: figure(emailMetrics.complaints, 'complaints'),
      opens: figure(emailMetrics.opens, 'opens'),
      clicks: figure(emailMetrics.clicks, 'clicks'),
    })
    .from(emailMetrics)
    .where(and(...where))
    .groupBy(emailMetrics.provider, emailMetrics.date)
    .as('metric_days');
}

/** The account's figures per UTC day in `range`, oldest first: each source's day as emailMetricDays reads it, then summed. */
export async function listDayTotals(
  ex: Executor,
  userId: number,
  range: { from: string; to?: string },
): Promise<DayVolumes[]> {
  const days = emailMetricDays(ex, userId, range);
  const date = sql<string>`to_char(${days.date}, 'YYYY-MM-DD')`;
  return ex
    .select({
      date,
      sent: sql<number>`sum(${days.emailsSent})::float8`,
      delivered: sql<number>`sum(${days.delivered})::float8`,
      bounced: sql<number>`sum(${days.bounced})::float8`,
      complaints: sql<number>`sum(${days.complaints})::float8`,
    })
    .from(days)
    .groupBy(date)
    .orderBy(date);
}

/** The first day of the current UTC month, as SQL for a date: where the monthly e-mail allowance starts counting. */
export const MONTH_START_DAY = sql`date_trunc('month', now() AT TIME ZONE 'UTC')::date`;

/** E-mails sent this UTC month, as the dashboard counts them (email_metrics by provider and day). */
export async function emailsThisMonth(ex: Executor, userId: number): Promise<number> {
  const days = emailMetricDays(ex, userId, { from: MONTH_START_DAY });
  const [row] = await ex.select({ sent: sql<number>`coalesce(sum(${days.emailsSent}), 0)::bigint` }).from(days);
  return Number(row?.sent ?? 0);
}
