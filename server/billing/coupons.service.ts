import type { Db } from '../platform/db/client';
import { AppError } from '../platform/errors';
import { disableCoupon, insertCoupon, listCoupons, type BillingCouponRow, type NewCoupon } from './billing.repo';

/** Stripe's rule for promotion codes, so a code moves between the two modes unchanged. */
export const COUPON_CODE = /^[A-Za-z0-9-]{1,64}$/;

/**
 * The self-hosted coupons (ADR 033), managed by the operator with `npm run coupons` (scripts/coupons.ts).
 * Stripe mode ignores this table: its coupons are Stripe's promotion codes.
 */
export async function addCoupon(db: Db, coupon: NewCoupon): Promise<BillingCouponRow> {
  if (!COUPON_CODE.test(coupon.code))
    throw new AppError('validation_error', 'A coupon code is 1 to 64 letters, digits and dashes');
  if ((coupon.percentOff == null) === (coupon.amountOffCents == null))
    throw new AppError('validation_error', 'Give either --percent or --amount');
  if (coupon.percentOff != null && !(coupon.percentOff > 0 && coupon.percentOff <= 100))
    throw new AppError('validation_error', '--percent must be more than 0 and at most 100');
  if (coupon.amountOffCents != null && !(Number.isSafeInteger(coupon.amountOffCents) && coupon.amountOffCents > 0))
    throw new AppError('validation_error', '--amount must be a positive amount in dollars, such as 10 or 9.99');
  if (
    coupon.maxRedemptions != null &&
    !(
      Number.isSafeInteger(coupon.maxRedemptions) &&
      coupon.maxRedemptions > 0 &&
      coupon.maxRedemptions <= 2_147_483_647
    )
  )
    throw new AppError('validation_error', '--max must be a whole number of redemptions from 1');
  const row = await insertCoupon(db, coupon);
  if (!row) throw new AppError('conflict', `A coupon ${coupon.code} exists already (codes are the same in any case)`);
  return row;
}

export function allCoupons(db: Db): Promise<BillingCouponRow[]> {
  return listCoupons(db);
}

/** A disabled coupon is refused from then on; the subscriptions that redeemed it keep their discount. */
export async function disableCouponCode(db: Db, code: string): Promise<BillingCouponRow> {
  const row = await disableCoupon(db, code);
  if (!row) throw new AppError('not_found', `No coupon ${code}`);
  return row;
}
