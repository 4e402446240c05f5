import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ComplianceScorecard } from '@contracts/compliance';
import { DomainIdParams } from '@contracts/domains';
import type { AppContext } from '../platform/context';
import { AppError } from '../platform/errors';
import { currentUser, requireUser } from '../platform/http/session';
import { domainScorecard } from './compliance.service';

export async function complianceRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  // onRequest: a signed-out caller gets 401 before its input is parsed or validated.
  const signedIn = requireUser(ctx.db);

  r.get(
    '/api/domains/:id/compliance',
    { onRequest: signedIn, schema: { params: DomainIdParams, response: { 200: ComplianceScorecard } } },
    async (request) => {
      const card = await domainScorecard(ctx.db, currentUser(request).id, request.params.id);
      // Another user's domain id behaves as if it did not exist.
      if (!card) throw new AppError('not_found', 'Domain not found');
      return card;
    },
  );
}
