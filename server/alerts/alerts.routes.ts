import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { Alert, AlertIdParams, AlertList } from '@contracts/alerts';
import { acknowledgeAlert, deleteAlert, findAlert, listAlerts, markAlertRead } from './alerts.repo';
import type { AppContext } from '../platform/context';
import { AppError } from '../platform/errors';
import { currentUser, requireUser } from '../platform/http/session';

const ALERT_NOT_FOUND = 'Alert not found';

function found(alert: Alert | undefined): Alert {
  if (!alert) throw new AppError('not_found', ALERT_NOT_FOUND);
  return alert;
}

/** /api/alerts/rules is registered by alert-rules.routes.ts: a static path, which the router prefers to /api/alerts/:id. */
export async function alertRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  // onRequest: a signed-out caller gets 401 before its input is parsed or validated.
  const signedIn = requireUser(ctx.db);
  const one = { onRequest: signedIn, schema: { params: AlertIdParams, response: { 200: Alert } } };

  r.get('/api/alerts', { onRequest: signedIn, schema: { response: { 200: AlertList } } }, async (request) =>
    listAlerts(ctx.db, currentUser(request).id),
  );

  r.get('/api/alerts/:id', one, async (request) =>
    found(await findAlert(ctx.db, currentUser(request).id, request.params.id)),
  );

  r.patch('/api/alerts/:id/read', one, async (request) =>
    found(await markAlertRead(ctx.db, currentUser(request).id, request.params.id)),
  );

  r.post('/api/alerts/:id/acknowledge', one, async (request) =>
    found(await acknowledgeAlert(ctx.db, currentUser(request).id, request.params.id)),
  );

  r.delete(
    '/api/alerts/:id',
    { onRequest: signedIn, schema: { params: AlertIdParams, response: { 204: z.undefined() } } },
    async (request, reply) => {
      if (!(await deleteAlert(ctx.db, currentUser(request).id, request.params.id)))
        throw new AppError('not_found', ALERT_NOT_FOUND);
      return reply.code(204).send();
    },
  );
}
