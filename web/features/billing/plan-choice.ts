import { BILLING_MESSAGES, PLAN_OF_PRICE, type BillingPriceId, type Subscription } from '@contracts/billing';
import type { PlanId } from '@contracts/plans';

/** What a plan card offers: a price, Free, or the Custom Enterprise plan (sales only). */
export type CardChoice = BillingPriceId | 'free' | 'enterprise';

/** What pressing a plan's button does (part 2, section 4, "Plan choice on the pricing page"). */
export type ChoiceOutcome =
  | { action: 'login' }
  | { action: 'contact-sales' }
  | { action: 'downgrade' }
  | { action: 'toast'; message: string }
  | { action: 'upgrade'; planId: BillingPriceId }
  | { action: 'change'; newPlanId: BillingPriceId };

/** Whether the subscription already is this price (or this plan, when the server names no price). */
export function isCurrentChoice(choice: CardChoice, subscription: Pick<Subscription, 'plan' | 'priceId'>): boolean {
  if (choice === 'free' || choice === 'enterprise') return subscription.plan === choice;
  if (subscription.priceId) return subscription.priceId === choice;
  return subscription.plan === PLAN_OF_PRICE[choice];
}

/**
 * The decision list of part 2, section 4, in its order: 1 logged out goes to login; 2 free
 * downgrades an active subscription, else says already free; 3 no subscription starts an upgrade;
 * 4 the same plan says so; 5 an active paid subscription changes; 6 any other upgrades; 8 the
 * custom plan is a sales mailto. (Item 7, what an upgrade's answer leads to, is the caller's.)
 * `subscription` is null when nobody is signed in.
 */
export function decidePlanChoice(choice: CardChoice, subscription: Subscription | null): ChoiceOutcome {
  if (!subscription) return { action: 'login' };
  if (choice === 'enterprise') return { action: 'contact-sales' };
  if (choice === 'free') {
    return subscription.status === 'active'
      ? { action: 'downgrade' }
      : { action: 'toast', message: BILLING_MESSAGES.alreadyFree };
  }
  if (subscription.status === null) return { action: 'upgrade', planId: choice };
  if (isCurrentChoice(choice, subscription)) return { action: 'toast', message: BILLING_MESSAGES.samePlan };
  if (subscription.status === 'active' && subscription.plan !== 'free') return { action: 'change', newPlanId: choice };
  return { action: 'upgrade', planId: choice };
}

export interface ChoiceButton {
  label: 'Current Plan' | 'Downgrade to Free' | 'Upgrade' | 'Change Plan' | 'Subscribe' | 'Contact Sales';
  disabled: boolean;
}

/**
 * The button of a plan card for a signed-in user (part 2, section 2): Current Plan (disabled),
 * Downgrade to Free, Upgrade (from free), Change Plan (from a paid plan), Subscribe (a paid plan
 * whose subscription is not active), Contact Sales (the custom plan).
 */
export function choiceButton(choice: CardChoice, subscription: Subscription): ChoiceButton {
  if (isCurrentChoice(choice, subscription)) return { label: 'Current Plan', disabled: true };
  if (choice === 'enterprise') return { label: 'Contact Sales', disabled: false };
  if (choice === 'free') return { label: 'Downgrade to Free', disabled: false };
  const plan: PlanId = subscription.plan;
  if (plan === 'free') return { label: 'Upgrade', disabled: false };
  if (subscription.status === 'active') return { label: 'Change Plan', disabled: false };
  return { label: 'Subscribe', disabled: false };
}
