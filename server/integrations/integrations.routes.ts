import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { IntegrationList } from '@contracts/integrations';
import type { AppContext } from '../platform/context';
import { currentUser, requireUser } from '../platform/http/session';
import { listUserIntegrations } from './integrations.repo';

export async function integrationRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();

  // Each integration with what it synced: volume and delivery over the last 30 days, and how many days of data.
  r.get('/api/integrations', { onRequest: requireUser(ctx.db), schema: { response: { 200: IntegrationList } } }, async (request) =>
    listUserIntegrations(ctx.db, currentUser(request).id),
  );
}
