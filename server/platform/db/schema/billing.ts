import { sql } from 'drizzle-orm';
import { bigint, boolean, check, integer, pgTable, real, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { belongsTo } from './columns';
import { users } from './users';

/**
 * Each user's subscription as billing last knew it (ADR 033): written by the plan-change calls and, in
 * Stripe mode, kept true by the webhook. users.subscription_plan is changed in the same transaction, so
 * the plan every gate reads and this state never disagree. No row: never subscribed (the Free Plan).
 */
export const billingSubscriptions = pgTable('billing_subscriptions', {
  userId: belongsTo(() => users.id).primaryKey(),
  /** active, canceled, past_due, incomplete, incomplete_expired; null: no subscription. */
  status: text(),
  /** starter_monthly, professional_monthly or professional_annual (contracts/billing.ts). */
  priceId: text(),
  /** month or year. */
  interval: text(),
  currentPeriodEnd: timestamp({ withTimezone: true }),
  cancelAtPeriodEnd: boolean().notNull().default(false),
  stripeCustomerId: text().unique(),
  stripeSubscriptionId: text().unique(),
  /**
   * When Stripe created the subscription (epoch seconds): an event about an older subscription than
   * the one held here never overwrites it (events arrive in any order).
   */
  stripeSubscriptionCreated: bigint({ mode: 'number' }),
  /** The coupon on the subscription, or the one applied for the next paid subscription while couponRedeemedAt is null. */
  couponCode: text(),
  couponPercentOff: real(),
  couponAmountOffCents: integer(),
  couponRedeemedAt: timestamp({ withTimezone: true }),
  /** The code given at registration (users.coupon_code) is offered once: at the first paid subscription. */
  registrationCouponUsed: boolean().notNull().default(false),
  updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

export type BillingSubscriptionRow = typeof billingSubscriptions.$inferSelect;

/**
 * Coupons of the self-hosted mode, managed with `npm run coupons` (scripts/coupons.ts). Stripe mode
 * uses Stripe's promotion codes instead. Codes are unique regardless of case.
 */
export const billingCoupons = pgTable(
  'billing_coupons',
  {
    code: text().primaryKey(),
    percentOff: real(),
    amountOffCents: integer(),
    /** Redeemable until this moment; null: no end. */
    validUntil: timestamp({ withTimezone: true }),
    /** null: no limit. */
    maxRedemptions: integer(),
    redemptions: integer().notNull().default(0),
    disabledAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('billing_coupons_code_lower_key').on(sql`lower(${t.code})`),
    check('billing_coupons_one_discount', sql`(${t.percentOff} IS NULL) <> (${t.amountOffCents} IS NULL)`),
    check(
      'billing_coupons_percent_range',
      sql`${t.percentOff} IS NULL OR (${t.percentOff} > 0 AND ${t.percentOff} <= 100)`,
    ),
    check('billing_coupons_amount_positive', sql`${t.amountOffCents} IS NULL OR ${t.amountOffCents} > 0`),
  ],
);

export type BillingCouponRow = typeof billingCoupons.$inferSelect;

/** Stripe events already applied: each is applied once, its id stored in the transaction of its effect. */
export const stripeEvents = pgTable('stripe_events', {
  id: text().primaryKey(),
  type: text().notNull(),
  processedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});
