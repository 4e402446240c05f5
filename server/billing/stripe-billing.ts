import type Stripe from 'stripe';
import type { Logger } from 'pino';
import { BILLING_MESSAGES, type Invoice } from '@contracts/billing';
import type { Db } from '../platform/db/client';
import type { UserRow } from '../platform/db/schema/index';
import { AppError } from '../platform/errors';
import type { BillingProvider } from './billing-provider';
import { findSubscription, saveCustomerId, saveSubscription, type BillingSubscriptionRow } from './billing.repo';
import { couponError, isLive, type CouponOffer } from './billing-rules';
import { stripeFailure, type StripeSettings } from './stripe-client';
import { applyStripeSubscription } from './stripe-subscription-state';

const INVOICES_SHOWN = 24;

/**
 * Billing through Stripe (ADR 033): customers made on first need, subscriptions created incomplete
 * until /checkout confirms the first payment with Stripe.js, plan changes prorated, coupons as
 * promotion codes, the billing portal and invoices from Stripe. Every answer of Stripe about a
 * subscription goes through applyStripeSubscription, as the webhook's do.
 */
export function stripeBilling(
  db: Db,
  stripe: Stripe,
  settings: StripeSettings,
  log: Logger,
  appUrl: string,
): BillingProvider {
  const { prices } = settings;

  /** Runs a Stripe call; its failure becomes the user's words (stripeFailure). */
  async function call<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      throw stripeFailure(error, log);
    }
  }

  const apply = (subscription: Stripe.Subscription) =>
    db.transaction((tx) => applyStripeSubscription(tx, subscription, prices));

  async function customerOf(user: UserRow): Promise<string> {
    const held = await findSubscription(db, user.id);
    if (held?.stripeCustomerId) return held.stripeCustomerId;
    // The key makes a retried or concurrent first call return the same customer instead of a second one.
    const customer = await call(() =>
      stripe.customers.create(
        { email: user.email, name: user.username, metadata: { userId: String(user.id) } },
        { idempotencyKey: `inboxpulse-customer-${user.id}-${user.createdAt.getTime()}` },
      ),
    );
    return saveCustomerId(db, user.id, customer.id);
  }

  async function liveSubscription(
    user: UserRow,
  ): Promise<{ held: BillingSubscriptionRow; subscription: Stripe.Subscription }> {
    const held = await findSubscription(db, user.id);
    if (!held?.stripeSubscriptionId || !isLive(held)) throw new AppError('conflict', BILLING_MESSAGES.noSubscription);
    const id = held.stripeSubscriptionId;
    return { held, subscription: await call(() => stripe.subscriptions.retrieve(id)) };
  }

  /** The active promotion code behind a customer-facing code, or undefined. */
  async function promotionCode(code: string): Promise<Stripe.PromotionCode | undefined> {
    const found = await call(() =>
      stripe.promotionCodes.list({ code, active: true, limit: 1, expand: ['data.promotion.coupon'] }),
    );
    return found.data[0];
  }

  /** The promotion code's coupon when it may be redeemed now; otherwise the words of its refusal. */
  function offerOf(promotion: Stripe.PromotionCode | undefined): CouponOffer | string {
    const coupon = promotion?.promotion.coupon;
    if (!promotion || !coupon || typeof coupon === 'string' || !coupon.valid) return BILLING_MESSAGES.invalidCoupon;
    if (promotion.expires_at !== null && promotion.expires_at * 1000 <= Date.now())
      return BILLING_MESSAGES.couponExpired;
    if (promotion.max_redemptions !== null && promotion.times_redeemed >= promotion.max_redemptions)
      return BILLING_MESSAGES.couponExhausted;
    return { code: promotion.code, percentOff: coupon.percent_off, amountOffCents: coupon.amount_off };
  }

  async function explicitPromotion(code: string): Promise<{ promotion: Stripe.PromotionCode; offer: CouponOffer }> {
    const promotion = await promotionCode(code);
    const offer = offerOf(promotion);
    if (typeof offer === 'string' || !promotion)
      throw couponError(typeof offer === 'string' ? offer : BILLING_MESSAGES.invalidCoupon);
    return { promotion, offer };
  }

  const couponColumns = (offer: CouponOffer | undefined) => ({
    couponCode: offer?.code ?? null,
    couponPercentOff: offer?.percentOff ?? null,
    couponAmountOffCents: offer?.amountOffCents ?? null,
    couponRedeemedAt: offer ? new Date() : null,
  });

  return {
    mode: 'stripe',
    publishableKey: settings.publishableKey,

    async subscribe(user, price) {
      const customer = await customerOf(user);
      const held = await findSubscription(db, user.id);
      // The coupon applied on the pricing page, else the registration code (offered once, skipped quietly when Stripe
      // has no such code).
      let coupon: { promotion: Stripe.PromotionCode; offer: CouponOffer } | undefined;
      let registrationCouponUsed = held?.registrationCouponUsed ?? false;
      if (held?.couponCode && !held.couponRedeemedAt) coupon = await explicitPromotion(held.couponCode);
      else if (user.couponCode && !registrationCouponUsed) {
        const promotion = await promotionCode(user.couponCode);
        const offer = offerOf(promotion);
        if (promotion && typeof offer !== 'string') coupon = { promotion, offer };
        registrationCouponUsed = true;
      }
      // An earlier checkout left unpaid would otherwise bill beside the new one.
      if (held?.stripeSubscriptionId && held.status === 'incomplete') {
        const stale = held.stripeSubscriptionId;
        await call(() => stripe.subscriptions.cancel(stale));
      }
      const subscription = await call(() =>
        stripe.subscriptions.create({
          customer,
          items: [{ price: prices.stripeId[price] }],
          payment_behavior: 'default_incomplete',
          payment_settings: { save_default_payment_method: 'on_subscription' },
          expand: ['latest_invoice.confirmation_secret'],
          metadata: { userId: String(user.id), priceId: price },
          ...(coupon ? { discounts: [{ promotion_code: coupon.promotion.id }] } : {}),
        }),
      );
      await db.transaction(async (tx) => {
        await applyStripeSubscription(tx, subscription, prices);
        await saveSubscription(tx, user.id, { ...couponColumns(coupon?.offer), registrationCouponUsed });
      });
      const invoice = subscription.latest_invoice;
      const clientSecret =
        invoice && typeof invoice !== 'string' ? invoice.confirmation_secret?.client_secret : undefined;
      // Nothing to pay (a 100 % coupon): Stripe made it active at once.
      if (subscription.status === 'active' || subscription.status === 'trialing')
        return { message: BILLING_MESSAGES.upgraded, planId: price };
      if (!clientSecret) throw new AppError('unavailable', 'Unable to create subscription. Please try again.');
      return { clientSecret, planId: price, subscriptionId: subscription.id };
    },

    async changePrice(user, price, couponCode) {
      const { subscription } = await liveSubscription(user);
      const coupon = couponCode === undefined ? undefined : await explicitPromotion(couponCode);
      const item = subscription.items.data[0];
      if (!item) throw new AppError('conflict', BILLING_MESSAGES.noSubscription);
      const updated = await call(() =>
        stripe.subscriptions.update(subscription.id, {
          items: [{ id: item.id, price: prices.stripeId[price] }],
          // The difference is billed on the next invoice, so a change never fails on a card at this moment.
          proration_behavior: 'create_prorations',
          cancel_at_period_end: false,
          ...(coupon ? { discounts: [{ promotion_code: coupon.promotion.id }] } : {}),
        }),
      );
      await db.transaction(async (tx) => {
        await applyStripeSubscription(tx, updated, prices);
        if (coupon) await saveSubscription(tx, user.id, couponColumns(coupon.offer));
      });
    },

    async endNow(user) {
      const { subscription } = await liveSubscription(user);
      // Prorated: the unused time is credited to the customer's balance.
      await apply(await call(() => stripe.subscriptions.cancel(subscription.id, { prorate: true })));
    },

    async cancel(user) {
      const { subscription } = await liveSubscription(user);
      await apply(await call(() => stripe.subscriptions.update(subscription.id, { cancel_at_period_end: true })));
      return BILLING_MESSAGES.canceled;
    },

    async reactivate(user) {
      const { subscription } = await liveSubscription(user);
      await apply(await call(() => stripe.subscriptions.update(subscription.id, { cancel_at_period_end: false })));
    },

    async billingPortalUrl(user) {
      const customer = await customerOf(user);
      const session = await call(() =>
        stripe.billingPortal.sessions.create({ customer, return_url: `${appUrl}/subscription` }),
      );
      return session.url;
    },

    async invoices(user) {
      const held = await findSubscription(db, user.id);
      const customer = held?.stripeCustomerId;
      if (!customer) return [];
      const list = await call(() => stripe.invoices.list({ customer, limit: INVOICES_SHOWN }));
      return list.data.map(invoiceView);
    },

    async findCoupon(code, price) {
      const { offer } = await explicitPromotion(code);
      const stripePrice = await call(() => stripe.prices.retrieve(prices.stripeId[price]));
      return { offer, priceCents: stripePrice.unit_amount ?? 0 };
    },

    async endForDeletedAccount(userId) {
      const held = await findSubscription(db, userId);
      const id = held?.stripeSubscriptionId;
      if (!id || held.status === 'canceled' || held.status === 'incomplete_expired') return;
      await call(() => stripe.subscriptions.cancel(id, { prorate: true }));
    },
  };
}

function invoiceView(invoice: Stripe.Invoice): Invoice {
  return {
    id: invoice.id ?? '',
    number: invoice.number,
    created: new Date(invoice.created * 1000).toISOString(),
    amountPaidCents: invoice.amount_paid,
    currency: invoice.currency,
    status: invoice.status ?? 'draft',
    hostedInvoiceUrl: invoice.hosted_invoice_url ?? null,
  };
}
