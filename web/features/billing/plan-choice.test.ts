import { describe, expect, it } from 'vitest';
import { BILLING_MESSAGES } from '@contracts/billing';
import { choiceButton, decidePlanChoice } from './plan-choice';
import { CARD_ERROR_MESSAGES, CHECKOUT_MESSAGES, paymentErrorMessage } from './checkout-messages';
import { needsPayment, statusBadge } from './subscription-status';
import { makeSubscription, PROFESSIONAL_MONTHLY } from './test/fixtures';

const FREE = makeSubscription();

describe('the plan choice of part 2, section 4, in its order', () => {
  it('1: logged out goes to login', () => {
    expect(decidePlanChoice('professional_monthly', null)).toEqual({ action: 'login' });
  });

  it('2: free downgrades an active subscription, else says already free', () => {
    expect(decidePlanChoice('free', PROFESSIONAL_MONTHLY)).toEqual({ action: 'downgrade' });
    expect(decidePlanChoice('free', { ...PROFESSIONAL_MONTHLY, status: 'past_due' })).toEqual({
      action: 'toast',
      message: BILLING_MESSAGES.alreadyFree,
    });
    expect(decidePlanChoice('free', FREE)).toEqual({ action: 'toast', message: "You're already on the Free plan" });
  });

  it('3: no subscription starts an upgrade, whatever the plan', () => {
    expect(decidePlanChoice('professional_monthly', FREE)).toEqual({
      action: 'upgrade',
      planId: 'professional_monthly',
    });
    expect(decidePlanChoice('professional_annual', FREE)).toEqual({ action: 'upgrade', planId: 'professional_annual' });
  });

  it('4: the same price says "You\'re already on this plan"', () => {
    expect(decidePlanChoice('professional_monthly', PROFESSIONAL_MONTHLY)).toEqual({
      action: 'toast',
      message: "You're already on this plan",
    });
    // A subscription the server names no price for is the same plan by its plan.
    expect(decidePlanChoice('professional_monthly', { ...PROFESSIONAL_MONTHLY, priceId: null })).toEqual({
      action: 'toast',
      message: BILLING_MESSAGES.samePlan,
    });
  });

  it('5: an active paid subscription changes to the other price', () => {
    expect(decidePlanChoice('professional_annual', PROFESSIONAL_MONTHLY)).toEqual({
      action: 'change',
      newPlanId: 'professional_annual',
    });
    expect(
      decidePlanChoice('professional_monthly', {
        ...PROFESSIONAL_MONTHLY,
        plan: 'starter',
        priceId: 'starter_monthly',
      }),
    ).toEqual({
      action: 'change',
      newPlanId: 'professional_monthly',
    });
  });

  it('6: a subscription that is not active upgrades', () => {
    for (const status of ['canceled', 'past_due', 'incomplete', 'incomplete_expired'] as const) {
      expect(decidePlanChoice('professional_annual', { ...PROFESSIONAL_MONTHLY, status })).toEqual({
        action: 'upgrade',
        planId: 'professional_annual',
      });
    }
  });

  it('8: the custom plan is a sales contact', () => {
    expect(decidePlanChoice('enterprise', FREE)).toEqual({ action: 'contact-sales' });
    expect(decidePlanChoice('enterprise', PROFESSIONAL_MONTHLY)).toEqual({ action: 'contact-sales' });
  });
});

describe('the button of each plan card', () => {
  it('from free: Current Plan (disabled), Upgrade, Contact Sales', () => {
    expect(choiceButton('free', FREE)).toEqual({ label: 'Current Plan', disabled: true });
    expect(choiceButton('professional_monthly', FREE)).toEqual({ label: 'Upgrade', disabled: false });
    expect(choiceButton('enterprise', FREE)).toEqual({ label: 'Contact Sales', disabled: false });
  });

  it('from professional: Downgrade to Free, Current Plan, Change Plan for the other period', () => {
    expect(choiceButton('free', PROFESSIONAL_MONTHLY)).toEqual({ label: 'Downgrade to Free', disabled: false });
    expect(choiceButton('professional_monthly', PROFESSIONAL_MONTHLY)).toEqual({
      label: 'Current Plan',
      disabled: true,
    });
    expect(choiceButton('professional_annual', PROFESSIONAL_MONTHLY)).toEqual({
      label: 'Change Plan',
      disabled: false,
    });
  });

  it('a paid plan whose subscription is not active: Subscribe', () => {
    expect(choiceButton('professional_annual', { ...PROFESSIONAL_MONTHLY, status: 'incomplete' })).toEqual({
      label: 'Subscribe',
      disabled: false,
    });
  });

  it('the custom plan itself is the Current Plan', () => {
    expect(choiceButton('enterprise', makeSubscription({ plan: 'enterprise', status: 'active' }))).toEqual({
      label: 'Current Plan',
      disabled: true,
    });
  });
});

describe('the subscription status badge', () => {
  it('Active, Canceled, Past Due, Payment Required for both incomplete states; no subscription is the Free Plan', () => {
    const badge = (
      status: Parameters<typeof statusBadge>[0]['status'],
      plan: 'free' | 'professional' = 'professional',
    ) => statusBadge({ plan, status }).label;
    expect(badge('active')).toBe('Active');
    expect(badge('canceled')).toBe('Canceled');
    expect(badge('past_due')).toBe('Past Due');
    expect(badge('incomplete')).toBe('Payment Required');
    expect(badge('incomplete_expired')).toBe('Payment Required');
    expect(badge(null, 'free')).toBe('Free Plan');
    // A paid plan an operator set, with no subscription behind it, is not called free.
    expect(badge(null, 'professional')).toBe('Active');
  });

  it('"requires payment" only for an incomplete subscription to a paid price', () => {
    expect(needsPayment({ plan: 'free', priceId: 'professional_monthly', status: 'incomplete' })).toBe(true);
    expect(needsPayment({ plan: 'free', priceId: null, status: 'incomplete' })).toBe(false);
    expect(needsPayment({ plan: 'professional', priceId: 'professional_monthly', status: 'active' })).toBe(false);
  });
});

describe('what a failed payment says (part 2, section 8)', () => {
  it('the four card codes in the spec’s words, any other error in the provider’s', () => {
    expect(paymentErrorMessage({ type: 'validation_error', code: 'incomplete_number' })).toBe(
      'Please enter a complete card number.',
    );
    expect(paymentErrorMessage({ type: 'validation_error', code: 'incomplete_cvc' })).toBe(
      'Please enter a complete CVC code.',
    );
    expect(paymentErrorMessage({ type: 'validation_error', code: 'incomplete_expiry' })).toBe(
      'Please enter a complete expiration date.',
    );
    expect(paymentErrorMessage({ type: 'card_error', code: 'card_declined', message: 'Your card was declined.' })).toBe(
      CARD_ERROR_MESSAGES.card_declined,
    );
    expect(paymentErrorMessage({ type: 'card_error', code: 'expired_card', message: 'Your card has expired.' })).toBe(
      'Your card has expired.',
    );
    expect(paymentErrorMessage({ type: 'api_connection_error', message: 'Failed to fetch' })).toBe(
      CHECKOUT_MESSAGES.network,
    );
  });
});
