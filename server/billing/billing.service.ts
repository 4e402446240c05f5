import type Stripe from 'stripe';
import {
  BILLING_MESSAGES,
  priceOfChoice,
  type ApplyCouponResponse,
  type BillingPriceId,
  type ChangeSubscriptionResponse,
  type Invoice,
  type PlanChoice,
  type SubscriptionResponse,
  type UpgradeSubscriptionResponse,
} from '@contracts/billing';
import type { AppContext } from '../platform/context';
import type { Db } from '../platform/db/client';
import type { UserRow } from '../platform/db/schema/index';
import { AppError } from '../platform/errors';
import { forgetCachedUser } from '../platform/http/session';
import type { BillingProvider } from './billing-provider';
import { findSubscription, loadUser, saveSubscription, type BillingSubscriptionRow } from './billing.repo';
import {
  couponError,
  discountPercent,
  isLive,
  listPriceCents,
  refuseEnterprise,
  refuseSamePrice,
  requireLive,
  subscriptionView,
} from './billing-rules';
import { selfHostedBilling } from './self-hosted-billing';
import { createStripeClient, stripeSettings, type StripeSettings } from './stripe-client';
import { stripeBilling } from './stripe-billing';
import { receiveStripeEvent } from './stripe-webhook';

type BillingContext = Pick<AppContext, 'env' | 'db' | 'log'>;

interface Billing {
  provider: BillingProvider;
  /** Stripe mode only. */
  stripe?: { client: Stripe; settings: StripeSettings };
}

const billings = new WeakMap<Db, Billing>();

/** The billing mode, chosen once per process from the environment (ADR 033): Stripe with STRIPE_SECRET_KEY, else self-hosted. */
function billingOf(ctx: BillingContext): Billing {
  let billing = billings.get(ctx.db);
  if (!billing) {
    const settings = stripeSettings(ctx.env);
    if (settings) {
      const client = createStripeClient(settings);
      billing = {
        provider: stripeBilling(ctx.db, client, settings, ctx.log, ctx.env.APP_URL),
        stripe: { client, settings },
      };
    } else {
      billing = { provider: selfHostedBilling(ctx.db) };
    }
    billings.set(ctx.db, billing);
  }
  return billing;
}

/** Runs a plan change and drops the cached user, so the next request (a gate) sees the new plan. */
async function changing<T>(ctx: BillingContext, user: UserRow, change: () => Promise<T>): Promise<T> {
  try {
    return await change();
  } finally {
    forgetCachedUser(ctx.db, user.id);
  }
}

function paidPrice(choice: PlanChoice): BillingPriceId {
  const price = priceOfChoice(choice);
  if (price === 'free') throw new AppError('validation_error', BILLING_MESSAGES.paidPlanOnly);
  return price;
}

/** GET /api/subscription. */
export async function getSubscription(ctx: BillingContext, user: UserRow): Promise<SubscriptionResponse> {
  const { provider } = billingOf(ctx);
  return {
    subscription: subscriptionView(user, await findSubscription(ctx.db, user.id)),
    billing: { mode: provider.mode, publishableKey: provider.publishableKey },
  };
}

/**
 * POST /api/upgrade-subscription (part 2, section 4): a new subscription when there is no live one;
 * with a live one on another price, the change it asks for (answered as an upgrade); on the same
 * price, "You're already on this plan".
 */
export async function upgradeSubscription(
  ctx: BillingContext,
  user: UserRow,
  choice: PlanChoice,
): Promise<UpgradeSubscriptionResponse> {
  refuseEnterprise(user);
  const price = paidPrice(choice);
  const held = await findSubscription(ctx.db, user.id);
  refuseSamePrice(held, price);
  const { provider } = billingOf(ctx);
  return changing(ctx, user, async () => {
    if (!held || !isLive(held)) return provider.subscribe(user, price);
    await provider.changePrice(user, price, couponForChange(held, undefined));
    return { message: BILLING_MESSAGES.upgraded, planId: price };
  });
}

/** POST /api/change-subscription: the live subscription to another price (prorated in Stripe mode), or to free. */
export async function changeSubscription(
  ctx: BillingContext,
  user: UserRow,
  choice: PlanChoice,
  couponCode: string | undefined,
): Promise<ChangeSubscriptionResponse> {
  refuseEnterprise(user);
  const held = await findSubscription(ctx.db, user.id);
  const price = priceOfChoice(choice);
  if (price === 'free') {
    await downgradeSubscription(ctx, user);
  } else {
    const live = requireLive(held);
    refuseSamePrice(held, price);
    const coupon = couponForChange(live, couponCode);
    await changing(ctx, user, () => billingOf(ctx).provider.changePrice(user, price, coupon));
  }
  return { subscription: await currentView(ctx.db, user.id) };
}

/**
 * The coupon a change redeems: the one sent, else the one applied on the pricing page since. The
 * coupon already redeemed on the subscription is not redeemed again (the page sends it back with each
 * change), and while it is there no other may take its place (409, as apply-coupon says).
 */
function couponForChange(live: BillingSubscriptionRow, sent: string | undefined): string | undefined {
  const redeemed = live.couponRedeemedAt ? live.couponCode : null;
  if (redeemed) {
    if (sent !== undefined && sent.toLowerCase() !== redeemed.toLowerCase())
      throw new AppError('conflict', BILLING_MESSAGES.couponLocked);
    return undefined;
  }
  return sent ?? live.couponCode ?? undefined;
}

/** POST /api/downgrade-subscription: back to Free now. */
export async function downgradeSubscription(ctx: BillingContext, user: UserRow): Promise<string> {
  refuseEnterprise(user);
  requireLive(await findSubscription(ctx.db, user.id), BILLING_MESSAGES.alreadyFree);
  await changing(ctx, user, () => billingOf(ctx).provider.endNow(user));
  return BILLING_MESSAGES.downgraded;
}

/** POST /api/cancel-subscription and /api/subscription/cancel. Asking again while it is scheduled says so again. */
export async function cancelSubscription(ctx: BillingContext, user: UserRow): Promise<string> {
  refuseEnterprise(user);
  const held = requireLive(await findSubscription(ctx.db, user.id));
  if (held.cancelAtPeriodEnd) return BILLING_MESSAGES.canceled;
  return changing(ctx, user, () => billingOf(ctx).provider.cancel(user));
}

/** POST /api/reactivate-subscription and /api/subscription/reactivate. */
export async function reactivateSubscription(ctx: BillingContext, user: UserRow): Promise<string> {
  refuseEnterprise(user);
  const held = await findSubscription(ctx.db, user.id);
  if (!isLive(held) || !held?.cancelAtPeriodEnd) throw new AppError('conflict', BILLING_MESSAGES.notCanceling);
  await changing(ctx, user, () => billingOf(ctx).provider.reactivate(user));
  return BILLING_MESSAGES.reactivated;
}

/** POST /api/subscription/billing-portal: Stripe's page for cards, invoices and cancellation. */
export async function openBillingPortal(ctx: BillingContext, user: UserRow): Promise<{ url: string }> {
  return { url: await billingOf(ctx).provider.billingPortalUrl(user) };
}

/** GET /api/invoices. */
export async function listInvoices(ctx: BillingContext, user: UserRow): Promise<Invoice[]> {
  return billingOf(ctx).provider.invoices(user);
}

/**
 * POST /api/apply-coupon: checks the code for the chosen plan and keeps it for the next paid
 * subscription (redeemed then). Once a coupon is redeemed on the live subscription, it is locked:
 * the same code answers again, another is refused.
 */
export async function applyCoupon(
  ctx: BillingContext,
  user: UserRow,
  code: string,
  choice: PlanChoice,
): Promise<ApplyCouponResponse> {
  const price = priceOfChoice(choice);
  if (price === 'free') throw couponError(BILLING_MESSAGES.paidPlanOnly);
  const held = await findSubscription(ctx.db, user.id);
  if (isLive(held) && held?.couponCode && held.couponRedeemedAt) {
    if (held.couponCode.toLowerCase() !== code.toLowerCase())
      throw new AppError('conflict', BILLING_MESSAGES.couponLocked);
    const offer = {
      code: held.couponCode,
      percentOff: held.couponPercentOff,
      amountOffCents: held.couponAmountOffCents,
    };
    const discount = discountPercent(offer, listPriceCents(price));
    return { discount, message: BILLING_MESSAGES.couponApplied(offer.code, discount) };
  }
  const { offer, priceCents } = await billingOf(ctx).provider.findCoupon(code, price);
  await saveSubscription(ctx.db, user.id, {
    couponCode: offer.code,
    couponPercentOff: offer.percentOff,
    couponAmountOffCents: offer.amountOffCents,
    couponRedeemedAt: null,
  });
  const discount = discountPercent(offer, priceCents);
  return { discount, message: BILLING_MESSAGES.couponApplied(offer.code, discount) };
}

/** POST /api/stripe/webhook: false when this server bills without Stripe. */
export async function receiveStripeWebhook(
  ctx: BillingContext,
  rawBody: Buffer,
  signature: string | undefined,
): Promise<boolean> {
  const { stripe } = billingOf(ctx);
  if (!stripe) return false;
  const userId = await receiveStripeEvent(ctx.db, stripe.client, stripe.settings, ctx.log, rawBody, signature);
  if (userId !== undefined) forgetCachedUser(ctx.db, userId);
  return true;
}

/** Before an account is deleted (accounts): in Stripe mode its subscription is canceled, so nothing bills a deleted user. */
export async function endBillingOf(ctx: BillingContext, userId: number): Promise<void> {
  await billingOf(ctx).provider.endForDeletedAccount(userId);
}

async function currentView(db: Db, userId: number) {
  const user = await loadUser(db, userId);
  if (!user) throw new AppError('unauthorized', 'Your account no longer exists');
  return subscriptionView(user, await findSubscription(db, userId));
}
