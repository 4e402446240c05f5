import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { UsageResponse } from '@contracts/plans';
import type { AppContext } from '../platform/context';
import { currentUser, requireUser } from '../platform/http/session';
import { usageOf } from './usage.service';

export async function planRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/usage',
    {
      onRequest: requireUser(ctx.db),
      schema: {
        summary: 'Your plan, its limits (null: unlimited), what you use of them this month and the plan’s features',
        response: { 200: UsageResponse },
      },
    },
    async (request) => usageOf(ctx.db, currentUser(request)),
  );
}
