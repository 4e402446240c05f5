import { desc, sql } from 'drizzle-orm';
import type { EmailMetric } from '@contracts/email-metrics';
import type { Executor } from '../platform/db/client';
import { emailMetricDays } from '../insights/email-metric-days';

/**
 * GET /api/email-metrics: the user's figures per provider and day, newest first, at most `limit` of
 * them. A day of an MTA has a row per mailbox provider and sending IP: they are summed
 * (emailMetricDays), so a reader still gets one row per provider and day.
 */
export async function listEmailMetricDays(
  ex: Executor,
  userId: number,
  range: { from?: string; to?: string },
  limit: number,
): Promise<EmailMetric[]> {
  const days = emailMetricDays(ex, userId, range);
  return ex
    .select({
      id: days.id,
      provider: days.provider,
      date: sql<string>`to_char(${days.date}, 'YYYY-MM-DD')`,
      emailsSent: days.emailsSent,
      delivered: days.delivered,
      bounced: days.bounced,
      complaints: days.complaints,
    })
    .from(days)
    .orderBy(desc(days.date), days.provider)
    .limit(limit);
}
