import { z } from 'zod';
import { text } from './input';
import { PlanId } from './plans';

/*
 * Subscription and billing (part 2, sections 3, 4, 7 and 8; ADR 033). The server runs in one of two
 * modes: Stripe (STRIPE_SECRET_KEY set) or self-hosted (the default: plan changes take effect at once,
 * coupons come from the operator's table, no card form).
 */

/** What the pricing page and checkout send as a plan: one of these prices (each bills one plan). */
export const BILLING_PRICE_IDS = ['starter_monthly', 'professional_monthly', 'professional_annual'] as const;
export const BillingPriceId = z.enum(BILLING_PRICE_IDS);
export type BillingPriceId = z.infer<typeof BillingPriceId>;

/** The plan each price bills. */
export const PLAN_OF_PRICE: Record<BillingPriceId, PlanId> = {
  starter_monthly: 'starter',
  professional_monthly: 'professional',
  professional_annual: 'professional',
};

export const BILLING_INTERVALS = ['month', 'year'] as const;
export type BillingInterval = (typeof BILLING_INTERVALS)[number];

export const INTERVAL_OF_PRICE: Record<BillingPriceId, BillingInterval> = {
  starter_monthly: 'month',
  professional_monthly: 'month',
  professional_annual: 'year',
};

/**
 * The list price of each, in US cents: the pricing page's $49 a month or $40 a month billed annually,
 * and the older table's starter at $29 (part 2, section 9). In Stripe mode Stripe's prices bill; these
 * turn an amount-off coupon into the percentage the coupon answer carries.
 */
export const PRICE_CENTS: Record<BillingPriceId, number> = {
  starter_monthly: 2_900,
  professional_monthly: 4_900,
  professional_annual: 48_000,
};

/**
 * What a plan choice may name: a price, `free` (downgrade), or a plan alone: `professional` means
 * professional_monthly (part 2, section 4, item 5) and `starter` starter_monthly.
 */
export const PLAN_CHOICES = [...BILLING_PRICE_IDS, 'free', 'starter', 'professional'] as const;
export const PlanChoice = z.enum(PLAN_CHOICES, {
  error: `Plan must be one of ${BILLING_PRICE_IDS.join(', ')} or free`,
});
export type PlanChoice = z.infer<typeof PlanChoice>;

/** The price a choice names; `free` for a downgrade. */
export function priceOfChoice(choice: PlanChoice): BillingPriceId | 'free' {
  if (choice === 'professional') return 'professional_monthly';
  if (choice === 'starter') return 'starter_monthly';
  return choice;
}

/** Stripe's subscription statuses the product shows (part 2, section 4). null: no subscription (the Free Plan badge). */
export const SUBSCRIPTION_STATUSES = ['active', 'canceled', 'past_due', 'incomplete', 'incomplete_expired'] as const;
export const SubscriptionStatus = z.enum(SUBSCRIPTION_STATUSES);
export type SubscriptionStatus = z.infer<typeof SubscriptionStatus>;

export const BILLING_MODES = ['stripe', 'self-hosted'] as const;
export const BillingMode = z.enum(BILLING_MODES);
export type BillingMode = z.infer<typeof BillingMode>;

/** The coupon a subscription carries (or the one applied for the next paid subscription). */
export const AppliedCoupon = z.object({
  code: z.string(),
  percentOff: z.number().nullable(),
  amountOffCents: z.number().int().nullable(),
});
export type AppliedCoupon = z.infer<typeof AppliedCoupon>;

export const Subscription = z.object({
  plan: PlanId,
  priceId: BillingPriceId.nullable(),
  status: SubscriptionStatus.nullable(),
  /** ISO 8601; null when there is no paid period (free, self-hosted). */
  current_period_end: z.string().nullable(),
  cancel_at_period_end: z.boolean(),
  coupon: AppliedCoupon.nullable(),
});
export type Subscription = z.infer<typeof Subscription>;

/** GET /api/subscription. */
export const SubscriptionResponse = z.object({
  subscription: Subscription,
  billing: z.object({
    mode: BillingMode,
    /** Stripe's publishable key for Stripe.js on /checkout; null in self-hosted mode. */
    publishableKey: z.string().nullable(),
  }),
});
export type SubscriptionResponse = z.infer<typeof SubscriptionResponse>;

/** POST /api/upgrade-subscription. */
export const UpgradeSubscriptionBody = z.object({ planId: PlanChoice });
export type UpgradeSubscriptionBody = z.infer<typeof UpgradeSubscriptionBody>;

/** Stripe mode when a payment is due: /checkout confirms it with Stripe.js. */
export const UpgradePaymentNeeded = z.object({
  clientSecret: z.string(),
  planId: BillingPriceId,
  subscriptionId: z.string(),
});
/** The change took effect at once (always in self-hosted mode; Stripe with nothing to pay, e.g. a 100 % coupon). */
export const UpgradeDone = z.object({
  message: z.literal('Subscription upgraded successfully'),
  planId: BillingPriceId,
});
export const UpgradeSubscriptionResponse = z.union([UpgradePaymentNeeded, UpgradeDone]);
export type UpgradeSubscriptionResponse = z.infer<typeof UpgradeSubscriptionResponse>;

const couponCodeRule = text('Coupon code', 64, { trim: true }).min(1, 'Coupon code is required');

/** POST /api/change-subscription: from one paid price to another (or `free`, a downgrade). */
export const ChangeSubscriptionBody = z.object({
  newPlanId: PlanChoice,
  couponCode: couponCodeRule.optional().nullable(),
});
export type ChangeSubscriptionBody = z.infer<typeof ChangeSubscriptionBody>;

export const ChangeSubscriptionResponse = z.object({ subscription: Subscription });
export type ChangeSubscriptionResponse = z.infer<typeof ChangeSubscriptionResponse>;

/** POST /api/apply-coupon: checks the code for that plan and keeps it for the next paid subscription. */
export const ApplyCouponBody = z.object({
  couponCode: couponCodeRule,
  planId: PlanChoice,
});
export type ApplyCouponBody = z.infer<typeof ApplyCouponBody>;

/** discount: the percentage off the chosen plan's price (part 2, section 3). */
export const ApplyCouponResponse = z.object({
  discount: z.number(),
  message: z.string(),
});
export type ApplyCouponResponse = z.infer<typeof ApplyCouponResponse>;

/** POST /api/subscription/billing-portal (Stripe mode). */
export const BillingPortalResponse = z.object({ url: z.string() });
export type BillingPortalResponse = z.infer<typeof BillingPortalResponse>;

export const Invoice = z.object({
  id: z.string(),
  number: z.string().nullable(),
  /** ISO 8601. */
  created: z.string(),
  amountPaidCents: z.number().int(),
  /** ISO 4217, lower case as Stripe writes it ("usd"). */
  currency: z.string(),
  /** Stripe's invoice status: draft, open, paid, uncollectible, void. */
  status: z.string(),
  hostedInvoiceUrl: z.string().nullable(),
});
export type Invoice = z.infer<typeof Invoice>;

/** GET /api/invoices: newest first; always empty in self-hosted mode. */
export const InvoicesResponse = z.object({ invoices: z.array(Invoice) });
export type InvoicesResponse = z.infer<typeof InvoicesResponse>;

/** The server's words (part 2, sections 4 and 8, where the spec has them). */
export const BILLING_MESSAGES = {
  upgraded: 'Subscription upgraded successfully',
  samePlan: "You're already on this plan",
  alreadyFree: "You're already on the Free plan",
  changed: 'Subscription plan changed successfully',
  downgraded: 'Your plan is now Free',
  canceled: 'Your subscription will be canceled at the end of the billing period',
  /** Self-hosted billing has no paid period to run out: a cancellation takes effect at once. */
  canceledNow: 'Your subscription has been canceled. Your plan is now Free',
  reactivated: 'Your subscription has been reactivated',
  notCanceling: 'Your subscription is not scheduled to cancel',
  noSubscription: 'You have no active subscription',
  paidPlanOnly: 'Choose a paid plan: starter_monthly, professional_monthly or professional_annual',
  notConfigured: 'Billing is not configured on this server',
  enterprise: 'The Custom Enterprise plan is arranged with sales: contact sales to change it',
  paymentPending: 'Your subscription requires payment to complete.',
  pastDue: 'Your subscription payment is past due. Please update your payment method.',
  invalidCoupon: 'Invalid coupon code',
  couponExpired: 'This coupon has expired',
  couponExhausted: 'This coupon has reached its redemption limit',
  couponLocked: 'A coupon is already applied',
  couponApplied: (code: string, discount: number) => `Coupon ${code} applied: ${discount}% off`,
} as const;

/** The spec's client-side fallbacks (part 2, section 8), for the screens. */
export const BILLING_ERRORS = {
  portalAccess: 'Failed to access billing portal. Please try again.',
  portalOpen: 'Failed to open billing portal. Please try again.',
  cancel: 'Failed to cancel subscription. Please contact support.',
  reactivate: 'Failed to reactivate subscription. Please contact support.',
  upgrade: 'Failed to upgrade subscription',
  change: 'Failed to change subscription plan',
  downgrade: 'Failed to downgrade subscription',
  coupon: 'Invalid coupon code',
  couponNetwork: 'Failed to apply coupon',
} as const;
