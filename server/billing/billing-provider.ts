import type { BillingMode, BillingPriceId, Invoice, UpgradeSubscriptionResponse } from '@contracts/billing';
import type { UserRow } from '../platform/db/schema/index';
import type { CouponOffer } from './billing-rules';

/**
 * What differs between the two billing modes (ADR 033), chosen once at start-up: self-hosted (the
 * default) and Stripe (STRIPE_SECRET_KEY). The plan-choice rules around these calls are the same for
 * both (billing.service.ts). Each call writes the subscription state and users.subscription_plan
 * together and leaves it to the caller to forget the cached user.
 */
export interface BillingProvider {
  readonly mode: BillingMode;
  /** Stripe.js's key for /checkout; null in self-hosted mode. */
  readonly publishableKey: string | null;
  /** A paid subscription to `price` for a user without a live one; the coupon applied for it (or the registration code) is redeemed. */
  subscribe(user: UserRow, price: BillingPriceId): Promise<UpgradeSubscriptionResponse>;
  /** The live subscription moved to `price`, with `couponCode` applied when given. */
  changePrice(user: UserRow, price: BillingPriceId, couponCode: string | undefined): Promise<void>;
  /** Downgrade to free: the live subscription ends now. */
  endNow(user: UserRow): Promise<void>;
  /** Cancel: Stripe keeps it until the period ends; self-hosted, with no period, ends it now. Answers what happened. */
  cancel(user: UserRow): Promise<string>;
  /** Undoes a cancellation at the period's end. */
  reactivate(user: UserRow): Promise<void>;
  billingPortalUrl(user: UserRow): Promise<string>;
  invoices(user: UserRow): Promise<Invoice[]>;
  /** The coupon behind `code` if it can be redeemed now, and the list price of `price` it would apply to; throws the refusal's words. */
  findCoupon(code: string, price: BillingPriceId): Promise<{ offer: CouponOffer; priceCents: number }>;
  /** Before an account is deleted: nothing keeps billing it. */
  endForDeletedAccount(userId: number): Promise<void>;
}
