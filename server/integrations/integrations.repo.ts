import { and, asc, desc, eq, sql } from 'drizzle-orm';
import type { EmailMetric } from '@contracts/email-metrics';
import { metricsWindowStart, percentOf } from '@contracts/figures';
import type { Integration } from '@contracts/integrations';
import type { Executor } from '../platform/db/client';
import { emailMetrics, integrations } from '../platform/db/schema/index';

/** The user's integrations with what each synced: volume and delivery over the last 30 days, and how many days of data. */
export async function listUserIntegrations(ex: Executor, userId: number): Promise<Integration[]> {
  const recent = sql`${emailMetrics.date} >= ${metricsWindowStart()}`;
  const rows = await ex
    .select({
      id: integrations.id,
      provider: integrations.provider,
      type: integrations.type,
      status: integrations.status,
      lastSyncAt: integrations.lastSyncAt,
      createdAt: integrations.createdAt,
      sent30: sql<number>`coalesce(sum(${emailMetrics.emailsSent}) filter (where ${recent}), 0)::int`,
      delivered30: sql<number>`coalesce(sum(${emailMetrics.delivered}) filter (where ${recent}), 0)::int`,
      dataPoints: sql<number>`count(${emailMetrics.id})::int`,
    })
    .from(integrations)
    .leftJoin(emailMetrics, and(eq(emailMetrics.userId, integrations.userId), eq(emailMetrics.provider, integrations.provider)))
    .where(eq(integrations.userId, userId))
    .groupBy(integrations.id)
    .orderBy(asc(integrations.provider));
  return rows.map((row) => ({
    id: row.id,
    provider: row.provider,
    type: row.type,
    status: row.status,
    lastSync: row.lastSyncAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    emailsSent: row.sent30,
    deliveryRate: percentOf(row.delivered30, row.sent30, 3),
    dataPoints: row.dataPoints,
  }));
}

/** The user's daily metric rows, newest first, at most `limit` of them. */
export async function listUserEmailMetrics(ex: Executor, userId: number, limit: number): Promise<EmailMetric[]> {
  const rows = await ex.select().from(emailMetrics).where(eq(emailMetrics.userId, userId)).orderBy(desc(emailMetrics.date), emailMetrics.provider).limit(limit);
  return rows.map(({ userId: _userId, ...row }) => row);
}
