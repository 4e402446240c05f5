import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ApiKeyStatus, GeneratedApiKey, GeneratedWebhookToken, WebhookTokenStatus } from '@contracts/api-keys';
import { MessageBody } from '@contracts/errors';
import type { AppContext } from '../platform/context';
import { useApiKeyTerms } from '../platform/http/api-key-auth';
import { apiKeyTerms } from '../plans/plan-gate.service';
import { currentUser, requireUser } from '../platform/http/session';
import {
  API_KEY_MESSAGES,
  apiKeyStatus,
  generateApiKey,
  generateWebhookToken,
  regenerateApiKey,
  regenerateWebhookToken,
  revokeApiKey,
  revokeWebhookToken,
  webhookTokenStatus,
} from './api-keys.service';

/**
 * Settings' API key and webhook token. Signed-in routes that a bearer key never opens (the platform
 * refuses keys on /api/api-keys and /api/webhook-tokens: a leaked key cannot mint another).
 */
export async function apiKeyRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const signedIn = requireUser(ctx.db);
  useApiKeyTerms(ctx.db, apiKeyTerms(ctx.env.API_RATE_LIMIT_OVERRIDE));

  r.get('/api/api-keys/status', { onRequest: signedIn, schema: { response: { 200: ApiKeyStatus } } }, async (request) =>
    apiKeyStatus(ctx.db, currentUser(request).id),
  );
  r.post(
    '/api/api-keys/generate',
    { onRequest: signedIn, schema: { response: { 200: GeneratedApiKey } } },
    async (request) => generateApiKey(ctx.db, currentUser(request).id),
  );
  r.post(
    '/api/api-keys/regenerate',
    { onRequest: signedIn, schema: { response: { 200: GeneratedApiKey } } },
    async (request) => regenerateApiKey(ctx.db, currentUser(request).id),
  );
  r.delete('/api/api-keys', { onRequest: signedIn, schema: { response: { 200: MessageBody } } }, async (request) => {
    await revokeApiKey(ctx.db, currentUser(request).id);
    return { message: API_KEY_MESSAGES.revoked };
  });

  r.get(
    '/api/webhook-tokens/status',
    { onRequest: signedIn, schema: { response: { 200: WebhookTokenStatus } } },
    async (request) => webhookTokenStatus(ctx.db, currentUser(request).id),
  );
  r.post(
    '/api/webhook-tokens/generate',
    { onRequest: signedIn, schema: { response: { 200: GeneratedWebhookToken } } },
    async (request) => generateWebhookToken(ctx.db, currentUser(request).id),
  );
  r.post(
    '/api/webhook-tokens/regenerate',
    { onRequest: signedIn, schema: { response: { 200: GeneratedWebhookToken } } },
    async (request) => regenerateWebhookToken(ctx.db, currentUser(request).id),
  );
  r.delete(
    '/api/webhook-tokens',
    { onRequest: signedIn, schema: { response: { 200: MessageBody } } },
    async (request) => {
      await revokeWebhookToken(ctx.db, currentUser(request).id);
      return { message: API_KEY_MESSAGES.tokenRevoked };
    },
  );
}
