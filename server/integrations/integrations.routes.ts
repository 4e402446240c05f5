import { and, asc, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { IntegrationList } from '../../contracts/integrations';
import type { AppContext } from '../platform/context';
import { emailMetrics, integrations } from '../platform/db/schema/index';
import { currentUser, requireUser } from '../platform/http/session';
import { metricsWindowStart, percentOf } from '../../contracts/figures';

export async function integrationRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();

  // Each integration with what it synced: volume and delivery over the last 30 days, and how many days of data.
  r.get('/api/integrations', { preHandler: requireUser(ctx.db), schema: { response: { 200: IntegrationList } } }, async (request) => {
    const recent = sql`${emailMetrics.date} >= ${metricsWindowStart()}`;
    const rows = await ctx.db
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
      .where(eq(integrations.userId, currentUser(request).id))
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
  });
}
