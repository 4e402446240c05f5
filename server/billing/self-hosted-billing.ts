import { BILLING_MESSAGES, INTERVAL_OF_PRICE, PLAN_OF_PRICE, type BillingPriceId } from '@contracts/billing';
import type { Db, Tx } from '../platform/db/client';
import type { UserRow } from '../platform/db/schema/index';
import { AppError } from '../platform/errors';
import type { BillingProvider } from './billing-provider';
import {
  findCoupon,
  lockBillingOf,
  redeemCoupon,
  saveSubscription,
  setUserPlan,
  type BillingSubscriptionRow,
  type SubscriptionChanges,
} from './billing.repo';
import { couponError, couponRefusal, listPriceCents, refuseSamePrice, requireLive } from './billing-rules';

/**
 * Billing without a payment provider (the default, ADR 033): the operator runs the server and its
 * users pay outside it, if at all. Plan changes take effect at once, coupons come from the
 * billing_coupons table (npm run coupons), there is no billing portal and there are no invoices.
 */
export function selfHostedBilling(db: Db): BillingProvider {
  /** Runs `change` with the user's row locked and their state read inside the transaction. */
  const locked = (
    user: UserRow,
    change: (tx: Tx, user: UserRow, subscription: BillingSubscriptionRow | undefined) => Promise<void>,
  ) =>
    db.transaction(async (tx) => {
      const current = await lockBillingOf(tx, user.id);
      if (!current.user) throw new AppError('unauthorized', 'Your account no longer exists');
      await change(tx, current.user, current.subscription);
    });

  const end = (user: UserRow) =>
    locked(user, async (tx, _user, subscription) => {
      requireLive(subscription, BILLING_MESSAGES.alreadyFree);
      await saveSubscription(tx, user.id, { status: 'canceled', cancelAtPeriodEnd: false });
      await setUserPlan(tx, user.id, 'free');
    });

  return {
    mode: 'self-hosted',
    publishableKey: null,

    async subscribe(user, price) {
      await locked(user, async (tx, current, subscription) => {
        refuseSamePrice(subscription, price);
        const coupon = await redeemForNewSubscription(tx, current, subscription);
        await saveSubscription(tx, user.id, { ...activeOn(price), ...coupon });
        await setUserPlan(tx, user.id, PLAN_OF_PRICE[price]);
      });
      return { message: BILLING_MESSAGES.upgraded, planId: price };
    },

    async changePrice(user, price, couponCode) {
      await locked(user, async (tx, _current, subscription) => {
        requireLive(subscription);
        refuseSamePrice(subscription, price);
        const coupon = couponCode === undefined ? {} : await redeemExplicit(tx, couponCode);
        await saveSubscription(tx, user.id, { ...activeOn(price), ...coupon });
        await setUserPlan(tx, user.id, PLAN_OF_PRICE[price]);
      });
    },

    endNow: end,

    async cancel(user) {
      await end(user);
      return BILLING_MESSAGES.canceledNow;
    },

    // Nothing is ever scheduled to end here, so there is nothing to reactivate.
    async reactivate() {
      throw new AppError('conflict', BILLING_MESSAGES.notCanceling);
    },

    async billingPortalUrl() {
      throw new AppError('conflict', BILLING_MESSAGES.notConfigured);
    },

    async invoices() {
      return [];
    },

    async findCoupon(code, price) {
      const coupon = await findCoupon(db, code);
      const refusal = couponRefusal(coupon);
      if (refusal || !coupon) throw couponError(refusal ?? BILLING_MESSAGES.invalidCoupon);
      return {
        offer: { code: coupon.code, percentOff: coupon.percentOff, amountOffCents: coupon.amountOffCents },
        priceCents: listPriceCents(price),
      };
    },

    async endForDeletedAccount() {},
  };
}

function activeOn(price: BillingPriceId): SubscriptionChanges {
  return {
    status: 'active',
    priceId: price,
    interval: INTERVAL_OF_PRICE[price],
    currentPeriodEnd: null,
    cancelAtPeriodEnd: false,
  };
}

/** A code the user chose (the coupon field, a change's couponCode): redeemed now, or refused with its reason. */
async function redeemExplicit(tx: Tx, code: string): Promise<SubscriptionChanges> {
  const coupon = await redeemCoupon(tx, code);
  if (!coupon) throw couponError(couponRefusal(await findCoupon(tx, code)) ?? BILLING_MESSAGES.invalidCoupon);
  return {
    couponCode: coupon.code,
    couponPercentOff: coupon.percentOff,
    couponAmountOffCents: coupon.amountOffCents,
    couponRedeemedAt: new Date(),
  };
}

/**
 * The coupon of a new paid subscription: the one applied on the pricing page (refused with its reason
 * if it can no longer be redeemed), else the registration code, offered once and skipped quietly when
 * it is not (or no longer) a coupon: the user never chose it on this page.
 */
async function redeemForNewSubscription(
  tx: Tx,
  user: UserRow,
  subscription: BillingSubscriptionRow | undefined,
): Promise<SubscriptionChanges> {
  if (subscription?.couponCode && !subscription.couponRedeemedAt) return redeemExplicit(tx, subscription.couponCode);
  const none = { couponCode: null, couponPercentOff: null, couponAmountOffCents: null, couponRedeemedAt: null };
  if (!user.couponCode || subscription?.registrationCouponUsed) return none;
  const coupon = await redeemCoupon(tx, user.couponCode);
  const used = { registrationCouponUsed: true };
  if (!coupon) return { ...none, ...used };
  return {
    ...used,
    couponCode: coupon.code,
    couponPercentOff: coupon.percentOff,
    couponAmountOffCents: coupon.amountOffCents,
    couponRedeemedAt: new Date(),
  };
}
