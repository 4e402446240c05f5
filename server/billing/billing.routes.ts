import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ApplyCouponBody,
  ApplyCouponResponse,
  BILLING_MESSAGES,
  BillingPortalResponse,
  ChangeSubscriptionBody,
  ChangeSubscriptionResponse,
  InvoicesResponse,
  SubscriptionResponse,
  UpgradeSubscriptionBody,
  UpgradeSubscriptionResponse,
} from '@contracts/billing';
import { MessageBody } from '@contracts/errors';
import type { AppContext } from '../platform/context';
import { AppError } from '../platform/errors';
import { currentUser, requireUser } from '../platform/http/session';
import {
  applyCoupon,
  cancelSubscription,
  changeSubscription,
  downgradeSubscription,
  getSubscription,
  listInvoices,
  openBillingPortal,
  reactivateSubscription,
  receiveStripeWebhook,
  upgradeSubscription,
} from './billing.service';

export const BEARER_REFUSED = 'API keys cannot be used for billing: sign in to manage your subscription';

/** Stripe's events are a few kilobytes; an invoice with many lines stays far below this. */
const WEBHOOK_BODY_LIMIT = 512 * 1024;

/**
 * Subscription and billing (part 2, section 7; ADR 033). Signed-in routes of the browser session
 * only: a leaked API key must not buy, change or cancel a plan (ADR 033). The Stripe webhook is
 * Stripe's: no session, its signature instead.
 */
export async function billingRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const signedIn = requireUser(ctx.db);
  // A bearer request is refused before signedIn runs (refuseKeysOnSessionOnlyRoutes).
  const session = { onRequest: signedIn, config: { sessionOnly: BEARER_REFUSED } };
  const tags = ['Billing'];

  r.get(
    '/api/subscription',
    { ...session, schema: { tags, response: { 200: SubscriptionResponse } } },
    async (request) => getSubscription(ctx, currentUser(request)),
  );
  r.get('/api/invoices', { ...session, schema: { tags, response: { 200: InvoicesResponse } } }, async (request) => ({
    invoices: await listInvoices(ctx, currentUser(request)),
  }));
  r.post(
    '/api/upgrade-subscription',
    { ...session, schema: { tags, body: UpgradeSubscriptionBody, response: { 200: UpgradeSubscriptionResponse } } },
    async (request) => upgradeSubscription(ctx, currentUser(request), request.body.planId),
  );
  r.post(
    '/api/change-subscription',
    { ...session, schema: { tags, body: ChangeSubscriptionBody, response: { 200: ChangeSubscriptionResponse } } },
    async (request) =>
      changeSubscription(ctx, currentUser(request), request.body.newPlanId, request.body.couponCode ?? undefined),
  );
  r.post(
    '/api/downgrade-subscription',
    { ...session, schema: { tags, response: { 200: MessageBody } } },
    async (request) => ({
      message: await downgradeSubscription(ctx, currentUser(request)),
    }),
  );
  // The subscription page's buttons and the settings page's (part 2, section 7) call two paths each.
  for (const url of ['/api/cancel-subscription', '/api/subscription/cancel']) {
    r.post(url, { ...session, schema: { tags, response: { 200: MessageBody } } }, async (request) => ({
      message: await cancelSubscription(ctx, currentUser(request)),
    }));
  }
  for (const url of ['/api/reactivate-subscription', '/api/subscription/reactivate']) {
    r.post(url, { ...session, schema: { tags, response: { 200: MessageBody } } }, async (request) => ({
      message: await reactivateSubscription(ctx, currentUser(request)),
    }));
  }
  r.post(
    '/api/subscription/billing-portal',
    { ...session, schema: { tags, response: { 200: BillingPortalResponse } } },
    async (request) => openBillingPortal(ctx, currentUser(request)),
  );
  r.post(
    '/api/apply-coupon',
    { ...session, schema: { tags, body: ApplyCouponBody, response: { 200: ApplyCouponResponse } } },
    async (request) => applyCoupon(ctx, currentUser(request), request.body.couponCode, request.body.planId),
  );

  await app.register(stripeWebhookRoute, ctx);
}

/**
 * Its own plugin, so the raw-body parser below serves this route alone (Fastify encapsulation): the
 * signature is over the exact bytes Stripe sent, which parsed-and-reserialised JSON would not be.
 */
async function stripeWebhookRoute(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: WEBHOOK_BODY_LIMIT }, (_request, body, done) =>
    done(null, body),
  );
  r.post(
    '/api/stripe/webhook',
    {
      bodyLimit: WEBHOOK_BODY_LIMIT,
      schema: {
        tags: ['Billing'],
        summary: "Stripe's events (signed with the endpoint's secret); not for other callers",
        headers: z.object({ 'stripe-signature': z.string().max(2000).optional() }),
        response: { 200: z.object({ received: z.literal(true) }) },
      },
    },
    async (request) => {
      const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      if (!(await receiveStripeWebhook(ctx, body, request.headers['stripe-signature'])))
        throw new AppError('conflict', BILLING_MESSAGES.notConfigured);
      return { received: true as const };
    },
  );
}
