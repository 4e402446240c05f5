import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AlertSettings, SavedAlertSettings, UpdateAlertSettings } from '@contracts/alert-settings';
import { getAlertSettings, updateAlertSettings } from './alert-settings.service';
import type { AppContext } from '../platform/context';
import { currentUser, requireUser } from '../platform/http/session';

export async function alertSettingsRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  // onRequest: a signed-out caller gets 401 before its input is parsed or validated.
  const signedIn = requireUser(ctx.db);

  r.get('/api/alert-settings', { onRequest: signedIn, schema: { response: { 200: AlertSettings } } }, async (request) =>
    getAlertSettings(ctx, currentUser(request).id),
  );

  r.put(
    '/api/alert-settings',
    { onRequest: signedIn, schema: { body: UpdateAlertSettings, response: { 200: SavedAlertSettings } } },
    async (request) => updateAlertSettings(ctx, currentUser(request), request.body),
  );
}
