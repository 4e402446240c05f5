import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AlertSettings, SavedAlertSettings, SmsCodeBody, UpdateAlertSettings } from '@contracts/alert-settings';
import { MessageBody } from '@contracts/errors';
import { getAlertSettings, updateAlertSettings } from './alert-settings.service';
import { confirmSmsCode, sendSmsCode } from './sms-verification.service';
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

  // Proving the SMS number: a code texted to it, then typed back (sms-verification.service.ts).
  r.post(
    '/api/alert-settings/sms-code',
    { onRequest: signedIn, schema: { response: { 200: MessageBody } } },
    async (request) => sendSmsCode(ctx, currentUser(request)),
  );

  r.post(
    '/api/alert-settings/sms-code/verify',
    { onRequest: signedIn, schema: { body: SmsCodeBody, response: { 200: AlertSettings } } },
    async (request) => {
      const userId = currentUser(request).id;
      await confirmSmsCode(ctx, userId, request.body.code);
      return getAlertSettings(ctx, userId);
    },
  );
}
