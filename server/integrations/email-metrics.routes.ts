import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { EmailMetricList, EmailMetricsQuery } from '@contracts/email-metrics';
import type { AppContext } from '../platform/context';
import { currentUser, requireUser } from '../platform/http/session';
import { listEmailMetricDays } from './email-metrics.repo';

// Bounded: a year of daily rows for a handful of providers; older data is for reports, not this list.
const MAX_ROWS = 2000;

export async function emailMetricRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  // One row per provider and day; `date` gives one day, `from`/`to` a range (UTC days, inclusive).
  r.get(
    '/api/email-metrics',
    { onRequest: requireUser(ctx.db), schema: { querystring: EmailMetricsQuery, response: { 200: EmailMetricList } } },
    async (request) => {
      const { date, from, to } = request.query;
      return listEmailMetricDays(
        ctx.db,
        currentUser(request).id,
        date ? { from: date, to: date } : { from, to },
        MAX_ROWS,
      );
    },
  );
}
