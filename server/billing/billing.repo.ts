import { and, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import type { PlanId } from '@contracts/plans';
import type { Executor, Tx } from '../platform/db/client';
import {
  billingCoupons,
  billingSubscriptions,
  stripeEvents,
  users,
  type BillingCouponRow,
  type BillingSubscriptionRow,
  type UserRow,
} from '../platform/db/schema/index';

export type { BillingCouponRow, BillingSubscriptionRow };
export type SubscriptionChanges = Partial<Omit<typeof billingSubscriptions.$inferInsert, 'userId' | 'updatedAt'>>;

export async function findSubscription(ex: Executor, userId: number): Promise<BillingSubscriptionRow | undefined> {
  const [row] = await ex.select().from(billingSubscriptions).where(eq(billingSubscriptions.userId, userId));
  return row;
}

/**
 * Locks the user's row, then reads their subscription: every plan change of one user runs one at a
 * time (two tabs upgrading at once), and an account deletion waits for it. Undefined user: deleted.
 */
export async function lockBillingOf(
  tx: Tx,
  userId: number,
): Promise<{ user?: UserRow; subscription?: BillingSubscriptionRow }> {
  const [user] = await tx.select().from(users).where(eq(users.id, userId)).for('update');
  if (!user) return {};
  return { user, subscription: await findSubscription(tx, userId) };
}

/** The user whose Stripe customer this is, locked as lockBillingOf does. */
export async function lockBillingOfCustomer(
  tx: Tx,
  customerId: string,
): Promise<{ user?: UserRow; subscription?: BillingSubscriptionRow }> {
  const [row] = await tx
    .select({ userId: billingSubscriptions.userId })
    .from(billingSubscriptions)
    .where(eq(billingSubscriptions.stripeCustomerId, customerId));
  return row ? lockBillingOf(tx, row.userId) : {};
}

/** Writes the user's subscription state (creating the row on the first change). */
export async function saveSubscription(
  ex: Executor,
  userId: number,
  changes: SubscriptionChanges,
): Promise<BillingSubscriptionRow> {
  const [row] = await ex
    .insert(billingSubscriptions)
    .values({ userId, ...changes })
    .onConflictDoUpdate({ target: billingSubscriptions.userId, set: { ...changes, updatedAt: sql`now()` } })
    .returning();
  return row;
}

/**
 * The plan every gate reads, changed with the subscription state in the caller's transaction. The
 * caller calls forgetCachedUser once it commits; the users trigger tells the other processes.
 */
export async function setUserPlan(tx: Tx, userId: number, plan: PlanId): Promise<void> {
  await tx
    .update(users)
    .set({ subscriptionPlan: plan, updatedAt: sql`now()` })
    .where(eq(users.id, userId));
}

/** The first Stripe customer id stored for the user wins; the answer is the one kept. */
export async function saveCustomerId(ex: Executor, userId: number, customerId: string): Promise<string> {
  await ex
    .insert(billingSubscriptions)
    .values({ userId, stripeCustomerId: customerId })
    .onConflictDoUpdate({
      target: billingSubscriptions.userId,
      set: {
        stripeCustomerId: sql`coalesce(${billingSubscriptions.stripeCustomerId}, excluded.stripe_customer_id)`,
        updatedAt: sql`now()`,
      },
    });
  const row = await findSubscription(ex, userId);
  return row?.stripeCustomerId ?? customerId;
}

// Self-hosted coupons.

export async function findCoupon(ex: Executor, code: string): Promise<BillingCouponRow | undefined> {
  const [row] = await ex
    .select()
    .from(billingCoupons)
    .where(eq(sql`lower(${billingCoupons.code})`, code.toLowerCase()));
  return row;
}

/**
 * Counts one redemption if the coupon may still be redeemed (enabled, not expired, under its limit),
 * in one statement, so two users cannot both take the last one. Undefined: it may not.
 */
export async function redeemCoupon(ex: Executor, code: string): Promise<BillingCouponRow | undefined> {
  const [row] = await ex
    .update(billingCoupons)
    .set({ redemptions: sql`${billingCoupons.redemptions} + 1` })
    .where(
      and(
        eq(sql`lower(${billingCoupons.code})`, code.toLowerCase()),
        isNull(billingCoupons.disabledAt),
        or(isNull(billingCoupons.validUntil), gt(billingCoupons.validUntil, sql`now()`)),
        or(isNull(billingCoupons.maxRedemptions), lt(billingCoupons.redemptions, billingCoupons.maxRedemptions)),
      ),
    )
    .returning();
  return row;
}

export type NewCoupon = Pick<
  typeof billingCoupons.$inferInsert,
  'code' | 'percentOff' | 'amountOffCents' | 'validUntil' | 'maxRedemptions'
>;

/** Undefined when a coupon with that code (in any case) exists. */
export async function insertCoupon(ex: Executor, coupon: NewCoupon): Promise<BillingCouponRow | undefined> {
  const [row] = await ex.insert(billingCoupons).values(coupon).onConflictDoNothing().returning();
  return row;
}

export async function listCoupons(ex: Executor): Promise<BillingCouponRow[]> {
  return ex.select().from(billingCoupons).orderBy(billingCoupons.createdAt, billingCoupons.code);
}

/** Undefined when there is no such coupon; a disabled one keeps its first disabling time. */
export async function disableCoupon(ex: Executor, code: string): Promise<BillingCouponRow | undefined> {
  const [row] = await ex
    .update(billingCoupons)
    .set({ disabledAt: sql`coalesce(${billingCoupons.disabledAt}, now())` })
    .where(eq(sql`lower(${billingCoupons.code})`, code.toLowerCase()))
    .returning();
  return row;
}

// Stripe events.

export async function stripeEventSeen(ex: Executor, id: string): Promise<boolean> {
  const [row] = await ex.select({ id: stripeEvents.id }).from(stripeEvents).where(eq(stripeEvents.id, id));
  return row !== undefined;
}

/** Records the event in the transaction of its effect; false when another delivery of it got there first. */
export async function recordStripeEvent(tx: Tx, id: string, type: string): Promise<boolean> {
  const rows = await tx
    .insert(stripeEvents)
    .values({ id, type })
    .onConflictDoNothing()
    .returning({ id: stripeEvents.id });
  return rows.length > 0;
}

/**
 * Forgets applied Stripe events after 90 days (the maintenance job). Stripe retries a delivery for 3
 * days and can send an event again for 30 (its events' lifetime); an older id never comes back.
 */
export async function purgeOldStripeEvents(ex: Executor): Promise<number> {
  const rows = await ex
    .delete(stripeEvents)
    .where(lt(stripeEvents.processedAt, sql`now() - interval '90 days'`))
    .returning({ id: stripeEvents.id });
  return rows.length;
}

/** The user's row as it is now (their plan after a change), undefined once deleted. */
export async function loadUser(ex: Executor, userId: number): Promise<UserRow | undefined> {
  const [row] = await ex.select().from(users).where(eq(users.id, userId));
  return row;
}
