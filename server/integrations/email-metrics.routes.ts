import { desc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { EmailMetricList } from '../../contracts/email-metrics';
import type { AppContext } from '../platform/context';
import { emailMetrics } from '../platform/db/schema/index';
import { currentUser, requireUser } from '../platform/http/session';

// Bounded: a year of daily rows for a handful of providers; older data is for reports, not this list.
const MAX_ROWS = 2000;

export async function emailMetricRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get('/api/email-metrics', { preHandler: requireUser(ctx.db), schema: { response: { 200: EmailMetricList } } }, async (request) => {
    const rows = await ctx.db
      .select()
      .from(emailMetrics)
      .where(eq(emailMetrics.userId, currentUser(request).id))
      .orderBy(desc(emailMetrics.date), emailMetrics.provider)
      .limit(MAX_ROWS);
    return rows.map(({ userId: _userId, ...row }) => row);
  });
}
