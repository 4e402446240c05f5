import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { EmailMetricList } from '@contracts/email-metrics';
import type { AppContext } from '../platform/context';
import { currentUser, requireUser } from '../platform/http/session';
import { listUserEmailMetrics } from './integrations.repo';

// Bounded: a year of daily rows for a handful of providers; older data is for reports, not this list.
const MAX_ROWS = 2000;

export async function emailMetricRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get('/api/email-metrics', { onRequest: requireUser(ctx.db), schema: { response: { 200: EmailMetricList } } }, async (request) =>
    listUserEmailMetrics(ctx.db, currentUser(request).id, MAX_ROWS),
  );
}
