import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { DELIVERY_BATCH_MAX_BYTES, IngestAnswer, WebhookTokenQuery } from '@contracts/delivery-events';
import { MessageBody } from '@contracts/errors';
import { EspWebhookList, EspWebhookParams, EspWebhookSecretBody } from '@contracts/esp-webhooks';
import type { AppContext } from '../../platform/context';
import { currentUser, requireUser } from '../../platform/http/session';
import { countedIngest } from '../counted-ingest';
import { requireWebhookToken, webhookUser } from '../webhook-token';
import { receiveEspPost } from './esp-webhook-receivers';
import { listEspWebhooks, removeEspSecret, saveEspSecret } from './esp-webhook-secrets';
import { markEventArrived } from './esp-webhooks.repo';

/**
 * The ESPs' event webhooks (ADR 052): SendGrid, Mailgun, Postmark and Amazon SES (through SNS) post their own
 * signed events to /api/esp-webhooks/<provider>?token=<webhook token>. The token names the account; the provider's
 * signature proves the post is the provider's. Events are stored as the MTA webhooks' are, once each.
 */
export async function espWebhookRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const ingest = countedIngest(ctx);
  const signedIn = requireUser(ctx.db);

  // Signatures cover the body's exact bytes, so the receiver keeps every post as it arrived (JSON, or SNS's
  // text/plain); its own scope, so the secret routes below still parse JSON.
  await app.register(async (receiver) => {
    receiver.removeAllContentTypeParsers();
    receiver.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: DELIVERY_BATCH_MAX_BYTES }, (_req, body, done) =>
      done(null, body),
    );
    receiver.withTypeProvider<ZodTypeProvider>().post(
      '/api/esp-webhooks/:provider',
      {
        onRequest: requireWebhookToken(ctx.db),
        bodyLimit: DELIVERY_BATCH_MAX_BYTES,
        config: { webhookToken: true },
        schema: {
          summary: 'An ESP’s own signed event webhook post (SendGrid, Mailgun, Postmark, Amazon SES through SNS)',
          tags: ['Delivery events'],
          params: EspWebhookParams,
          querystring: WebhookTokenQuery,
          response: { 200: IngestAnswer },
        },
      },
      async (request) => {
        const userId = webhookUser(request);
        const { provider } = request.params;
        const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        const received = await receiveEspPost(ctx, userId, provider, { body, headers: request.headers });
        await markEventArrived(ctx.db, userId, provider);
        if ('confirmed' in received) {
          request.log.info({ topic: received.confirmed }, 'SNS subscription confirmed');
          return { accepted: 0, duplicates: 0, ignored: 1, rejected: [] };
        }
        return ingest(userId, provider, received.rows);
      },
    );
  });

  r.get(
    '/api/esp-webhooks',
    { onRequest: signedIn, schema: { tags: ['Integrations'], response: { 200: EspWebhookList } } },
    async (request) => listEspWebhooks(ctx, currentUser(request).id),
  );

  r.put(
    '/api/esp-webhooks/:provider/secret',
    {
      onRequest: signedIn,
      schema: {
        tags: ['Integrations'],
        params: EspWebhookParams,
        body: EspWebhookSecretBody,
        response: { 200: MessageBody },
      },
    },
    async (request) => {
      await saveEspSecret(ctx, currentUser(request).id, request.params.provider, request.body.secret);
      return { message: 'Secret saved' };
    },
  );

  r.delete(
    '/api/esp-webhooks/:provider/secret',
    {
      onRequest: signedIn,
      schema: { tags: ['Integrations'], params: EspWebhookParams, response: { 200: MessageBody } },
    },
    async (request) => {
      await removeEspSecret(ctx, currentUser(request).id, request.params.provider);
      return { message: 'Secret removed' };
    },
  );
}
