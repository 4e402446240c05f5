import type { Subscription } from '@contracts/billing';
import type { Tone } from '../../components/ui/pill';

export interface StatusBadge {
  label: 'Active' | 'Canceled' | 'Past Due' | 'Payment Required' | 'Free Plan';
  tone: Tone;
}

/**
 * The subscription status badge (part 2, section 4): Active, Canceled, Past Due, "Payment Required"
 * for both incomplete states, Active for anything else; no subscription shows the Free Plan badge.
 * A paid plan without a subscription (an operator set it) is not called free: it is active.
 */
export function statusBadge(subscription: Pick<Subscription, 'plan' | 'status'>): StatusBadge {
  switch (subscription.status) {
    case null:
      return subscription.plan === 'free' ? { label: 'Free Plan', tone: 'none' } : { label: 'Active', tone: 'good' };
    case 'canceled':
      return { label: 'Canceled', tone: 'none' };
    case 'past_due':
      return { label: 'Past Due', tone: 'bad' };
    case 'incomplete':
    case 'incomplete_expired':
      return { label: 'Payment Required', tone: 'warn' };
    default:
      return { label: 'Active', tone: 'good' };
  }
}

/** Part 2, section 8: "Incomplete on paid plan" — a subscription to a paid price that was never paid. */
export function needsPayment(subscription: Pick<Subscription, 'plan' | 'priceId' | 'status'>): boolean {
  const incomplete = subscription.status === 'incomplete' || subscription.status === 'incomplete_expired';
  return incomplete && (subscription.priceId !== null || subscription.plan !== 'free');
}

/** Whether the user can cancel now: active, on a paid plan, not already canceling (part 2, section 4). */
export function canCancel(subscription: Pick<Subscription, 'plan' | 'status' | 'cancel_at_period_end'>): boolean {
  return subscription.status === 'active' && !subscription.cancel_at_period_end && subscription.plan !== 'free';
}
