import type Stripe from 'stripe';
import { INTERVAL_OF_PRICE, PLAN_OF_PRICE, type BillingPriceId, type SubscriptionStatus } from '@contracts/billing';
import type { PlanId } from '@contracts/plans';
import type { Tx } from '../platform/db/client';
import { planOf } from '../plans/plan-gate.service';
import { lockBillingOf, lockBillingOfCustomer, saveSubscription, setUserPlan } from './billing.repo';

/** Our price id of each Stripe price id (the STRIPE_PRICE_* variables), and back. */
export interface StripePrices {
  stripeId: Record<BillingPriceId, string>;
  ours: Map<string, BillingPriceId>;
}

/**
 * The status the product shows for each of Stripe's (part 2, section 4) and whether the plan is given.
 * trialing bills like active; unpaid (retries exhausted) is shown as past due without the plan;
 * paused gives nothing and shows as canceled.
 */
const STATUS_OF: Record<string, { status: SubscriptionStatus; givesPlan: boolean }> = {
  active: { status: 'active', givesPlan: true },
  trialing: { status: 'active', givesPlan: true },
  past_due: { status: 'past_due', givesPlan: true },
  unpaid: { status: 'past_due', givesPlan: false },
  canceled: { status: 'canceled', givesPlan: false },
  paused: { status: 'canceled', givesPlan: false },
  incomplete: { status: 'incomplete', givesPlan: false },
  incomplete_expired: { status: 'incomplete_expired', givesPlan: false },
};

const idOf = (value: string | { id: string }) => (typeof value === 'string' ? value : value.id);

/**
 * Makes the local state say what Stripe's subscription object says: the status, price, period end,
 * cancellation and, through them, users.subscription_plan. The webhook hands it the subscription as
 * Stripe has it now (re-fetched), so the order events arrive in does not matter; a subscription older
 * than the one held (a late event about one the user left) changes nothing. Returns the user whose
 * plan or state changed, undefined when the subscription is no user's or is stale.
 */
export async function applyStripeSubscription(
  tx: Tx,
  subscription: Stripe.Subscription,
  prices: StripePrices,
): Promise<number | undefined> {
  const customerId = idOf(subscription.customer);
  let current = await lockBillingOfCustomer(tx, customerId);
  const metadataUser = Number(subscription.metadata?.userId);
  if (!current.user && Number.isSafeInteger(metadataUser) && metadataUser > 0) {
    current = await lockBillingOf(tx, metadataUser);
    // Another customer's user: the metadata does not outrank the stored customer.
    if (current.subscription?.stripeCustomerId && current.subscription.stripeCustomerId !== customerId)
      return undefined;
  }
  const { user, subscription: held } = current;
  if (!user) return undefined;
  const sameOne = held?.stripeSubscriptionId === subscription.id;
  if (held?.stripeSubscriptionId && !sameOne && (held.stripeSubscriptionCreated ?? 0) > subscription.created)
    return undefined;

  const mapped = STATUS_OF[subscription.status] ?? { status: 'canceled', givesPlan: false };
  const item = subscription.items.data[0];
  const price = item ? prices.ours.get(item.price.id) : undefined;
  const keptPrice = price ?? (sameOne ? (held?.priceId as BillingPriceId | null) : null) ?? null;
  await saveSubscription(tx, user.id, {
    stripeCustomerId: customerId,
    stripeSubscriptionId: subscription.id,
    stripeSubscriptionCreated: subscription.created,
    status: mapped.status,
    priceId: keptPrice,
    interval: keptPrice ? INTERVAL_OF_PRICE[keptPrice] : null,
    currentPeriodEnd: item?.current_period_end ? new Date(item.current_period_end * 1000) : null,
    cancelAtPeriodEnd: subscription.cancel_at_period_end,
  });
  // An operator's Custom Enterprise is not Stripe's to change.
  if (planOf(user) !== 'enterprise') {
    const plan: PlanId = mapped.givesPlan ? (keptPrice ? PLAN_OF_PRICE[keptPrice] : planOf(user)) : 'free';
    if (plan !== planOf(user)) await setUserPlan(tx, user.id, plan);
  }
  return user.id;
}
