import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CreatedWebhook,
  CreateWebhookBody,
  WebhookDelivery,
  WebhookDeliveryIdParams,
  WebhookDeliveryList,
  WebhookIdParams,
  WebhookList,
} from '@contracts/webhooks';
import type { AppContext } from '../platform/context';
import { AppError } from '../platform/errors';
import { acceptIdempotencyKeys } from '../platform/http/idempotency';
import { currentUser, requireUser } from '../platform/http/session';
import { createWebhook, redeliver, sendTestEvent, toDelivery, toWebhook } from './webhooks.service';
import {
  deleteUserWebhook,
  findUserDelivery,
  findUserWebhook,
  listLatestDeliveries,
  listUserWebhooks,
  type WebhookRow,
} from './webhooks.repo';

const NOT_FOUND = 'Webhook not found';
/** The deliveries a webhook's log shows. */
const DELIVERIES_SHOWN = 50;

export async function webhookRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  // onRequest: a signed-out caller gets 401 before its input is parsed or validated.
  const signedIn = requireUser(ctx.db);
  // POSTs that create something replay their first answer for a repeated Idempotency-Key.
  acceptIdempotencyKeys(app, ctx.db);

  /** The user's own webhook, or 404 (another user's id behaves as if it did not exist). */
  async function ownWebhook(userId: number, id: number): Promise<WebhookRow> {
    const row = await findUserWebhook(ctx.db, userId, id);
    if (!row) throw new AppError('not_found', NOT_FOUND);
    return row;
  }

  r.get('/api/webhooks', { onRequest: signedIn, schema: { response: { 200: WebhookList } } }, async (request) =>
    (await listUserWebhooks(ctx.db, currentUser(request).id)).map((row) => toWebhook(row, ctx.env.APP_SECRET)),
  );

  r.post(
    '/api/webhooks',
    {
      onRequest: signedIn,
      config: { idempotent: true },
      schema: { body: CreateWebhookBody, response: { 200: CreatedWebhook } },
    },
    async (request) => createWebhook(ctx, currentUser(request).id, request.body),
  );

  r.delete(
    '/api/webhooks/:id',
    { onRequest: signedIn, schema: { params: WebhookIdParams, response: { 204: z.undefined() } } },
    async (request, reply) => {
      const { id } = request.params;
      const webhook = await ownWebhook(currentUser(request).id, id);
      // Alert Settings would still say it is on: it is turned off where it was turned on.
      if (webhook.source === 'alert_settings')
        throw new AppError(
          'conflict',
          'This webhook belongs to Alert Settings: turn off webhook notifications there to remove it',
        );
      if (!(await deleteUserWebhook(ctx.db, currentUser(request).id, id))) throw new AppError('not_found', NOT_FOUND);
      return reply.code(204).send();
    },
  );

  r.post(
    '/api/webhooks/:id/test',
    { onRequest: signedIn, schema: { params: WebhookIdParams, response: { 200: WebhookDelivery } } },
    async (request) => sendTestEvent(ctx.db, ctx.jobs, await ownWebhook(currentUser(request).id, request.params.id)),
  );

  r.get(
    '/api/webhooks/:id/deliveries',
    { onRequest: signedIn, schema: { params: WebhookIdParams, response: { 200: WebhookDeliveryList } } },
    async (request) => {
      const webhook = await ownWebhook(currentUser(request).id, request.params.id);
      return (await listLatestDeliveries(ctx.db, webhook.id, DELIVERIES_SHOWN)).map(toDelivery);
    },
  );

  r.post(
    '/api/webhooks/deliveries/:id/redeliver',
    { onRequest: signedIn, schema: { params: WebhookDeliveryIdParams, response: { 200: WebhookDelivery } } },
    async (request) => {
      const delivery = await findUserDelivery(ctx.db, currentUser(request).id, request.params.id);
      if (!delivery) throw new AppError('not_found', 'Delivery not found');
      return redeliver(ctx.db, ctx.jobs, delivery);
    },
  );
}
