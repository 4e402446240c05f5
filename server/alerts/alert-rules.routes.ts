import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AlertRule, AlertRuleIdParams, CreateAlertRule } from '@contracts/alert-settings';
import { alertRulesOf, createAlertRule, deleteAlertRule } from './alert-rules.service';
import type { AppContext } from '../platform/context';
import { acceptIdempotencyKeys } from '../platform/http/idempotency';
import { currentUser, requireUser } from '../platform/http/session';

/** Static paths under /api/alerts/: the router prefers them to /api/alerts/:id whatever the registration order. */
export async function alertRuleRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  // onRequest: a signed-out caller gets 401 before its input is parsed or validated.
  const signedIn = requireUser(ctx.db);
  // POSTs that create something replay their first answer for a repeated Idempotency-Key.
  acceptIdempotencyKeys(app, ctx.db);

  r.get(
    '/api/alerts/rules',
    { onRequest: signedIn, schema: { response: { 200: z.array(AlertRule) } } },
    async (request) => alertRulesOf(ctx.db, currentUser(request).id),
  );

  r.post(
    '/api/alerts/rules',
    {
      onRequest: signedIn,
      config: { idempotent: true },
      schema: { body: CreateAlertRule, response: { 200: AlertRule } },
    },
    async (request) => createAlertRule(ctx, currentUser(request), request.body),
  );

  r.delete(
    '/api/alerts/rules/:id',
    { onRequest: signedIn, schema: { params: AlertRuleIdParams, response: { 204: z.undefined() } } },
    async (request, reply) => {
      await deleteAlertRule(ctx, currentUser(request).id, request.params.id);
      return reply.code(204).send();
    },
  );
}
