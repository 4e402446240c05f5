import {
  BILLING_MESSAGES,
  BILLING_PRICE_IDS,
  PRICE_CENTS,
  type AppliedCoupon,
  type BillingPriceId,
  type Subscription,
  type SubscriptionStatus,
} from '@contracts/billing';
import type { UserRow } from '../platform/db/schema/index';
import { AppError } from '../platform/errors';
import { planOf } from '../plans/plan-gate.service';
import type { BillingCouponRow, BillingSubscriptionRow } from './billing.repo';

/*
 * The plan-choice rules of part 2, section 4, said once for both modes: what each call may do from
 * the state the user is in. Self-hosted billing checks them again inside its transaction.
 */

const KNOWN_PRICES: ReadonlySet<string> = new Set(BILLING_PRICE_IDS);
const STATUSES: ReadonlySet<string> = new Set(['active', 'canceled', 'past_due', 'incomplete', 'incomplete_expired']);

/** A subscription that bills and gives its plan: active, or past due while Stripe retries the payment. */
export function isLive(subscription: Pick<BillingSubscriptionRow, 'status'> | undefined): boolean {
  return subscription?.status === 'active' || subscription?.status === 'past_due';
}

export function priceOf(subscription: Pick<BillingSubscriptionRow, 'priceId'> | undefined): BillingPriceId | null {
  const price = subscription?.priceId;
  return price && KNOWN_PRICES.has(price) ? (price as BillingPriceId) : null;
}

/** Custom Enterprise is arranged with sales and set by an operator: no call of the pricing page changes it. */
export function refuseEnterprise(user: Pick<UserRow, 'subscriptionPlan'>): void {
  if (planOf(user) === 'enterprise') throw new AppError('conflict', BILLING_MESSAGES.enterprise);
}

/** An upgrade or change to `price`: refused when the live subscription is on it already. */
export function refuseSamePrice(subscription: BillingSubscriptionRow | undefined, price: BillingPriceId): void {
  if (isLive(subscription) && priceOf(subscription) === price)
    throw new AppError('conflict', BILLING_MESSAGES.samePlan);
}

/** A change of plan, a cancellation: only a live subscription has one. */
export function requireLive(
  subscription: BillingSubscriptionRow | undefined,
  message: string = BILLING_MESSAGES.noSubscription,
): BillingSubscriptionRow {
  if (!subscription || !isLive(subscription)) throw new AppError('conflict', message);
  return subscription;
}

/**
 * The subscription as GET /api/subscription and the change answer show it: what the account is on
 * now. A canceled subscription keeps its old price and coupon in its row, but the account is on its
 * plan (Free) with no price, period or coupon; the status still says it was canceled. A live one
 * scheduled to cancel keeps its price and coupon until its period end.
 */
export function subscriptionView(
  user: Pick<UserRow, 'subscriptionPlan'>,
  subscription: BillingSubscriptionRow | undefined,
): Subscription {
  const status =
    subscription?.status && STATUSES.has(subscription.status) ? (subscription.status as SubscriptionStatus) : null;
  const current = status === 'canceled' ? undefined : subscription;
  return {
    plan: planOf(user),
    priceId: priceOf(current),
    status,
    current_period_end: current?.currentPeriodEnd?.toISOString() ?? null,
    cancel_at_period_end: current?.cancelAtPeriodEnd ?? false,
    coupon: couponView(current),
  };
}

function couponView(subscription: BillingSubscriptionRow | undefined): AppliedCoupon | null {
  if (!subscription?.couponCode) return null;
  return {
    code: subscription.couponCode,
    percentOff: subscription.couponPercentOff,
    amountOffCents: subscription.couponAmountOffCents,
  };
}

/** What a coupon takes off, whichever mode found it. */
export interface CouponOffer {
  code: string;
  percentOff: number | null;
  amountOffCents: number | null;
}

/** The percentage off `priceCents` (part 2, section 3: the answer's discount is a percentage), to a tenth. */
export function discountPercent(offer: CouponOffer, priceCents: number): number {
  if (offer.percentOff !== null) return offer.percentOff;
  const percent = ((offer.amountOffCents ?? 0) / Math.max(priceCents, 1)) * 100;
  return Math.min(100, Math.round(percent * 10) / 10);
}

export function listPriceCents(price: BillingPriceId): number {
  return PRICE_CENTS[price];
}

/** Why a self-hosted coupon cannot be redeemed now, in the words the coupon field shows. */
export function couponRefusal(coupon: BillingCouponRow | undefined, now = new Date()): string | undefined {
  if (!coupon || coupon.disabledAt) return BILLING_MESSAGES.invalidCoupon;
  if (coupon.validUntil && coupon.validUntil <= now) return BILLING_MESSAGES.couponExpired;
  if (coupon.maxRedemptions !== null && coupon.redemptions >= coupon.maxRedemptions)
    return BILLING_MESSAGES.couponExhausted;
  return undefined;
}

export function couponError(message: string): AppError {
  return new AppError('validation_error', message);
}
