import { useId, useState, type FormEvent } from 'react';
import { Check, Tag } from 'lucide-react';
import { BILLING_ERRORS, type AppliedCoupon, type PlanChoice } from '@contracts/billing';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { ApiError } from '../../../lib/api-client';
import { useApplyCouponMutation } from '../api';

/** A coupon the server accepted: its code, the percentage off and the server's sentence. */
export interface CouponState {
  code: string;
  discount: number | null;
  message: string;
}

/** The coupon the subscription already carries, as the field shows it locked. */
export function couponFromSubscription(coupon: AppliedCoupon | null): CouponState | null {
  if (!coupon) return null;
  const off =
    coupon.percentOff !== null
      ? `${coupon.percentOff}% off`
      : coupon.amountOffCents !== null
        ? `$${(coupon.amountOffCents / 100).toFixed(2)} off`
        : '';
  return {
    code: coupon.code,
    discount: coupon.percentOff,
    message: off ? `Coupon ${coupon.code} applied: ${off}` : `Coupon ${coupon.code} applied`,
  };
}

/** Part 2, section 8: the server's words or 'Invalid coupon code'; a request that never got an answer, 'Failed to apply coupon'. */
export function couponError(error: unknown): string {
  if (error instanceof ApiError) return error.serverMessage || BILLING_ERRORS.coupon;
  return BILLING_ERRORS.couponNetwork;
}

/**
 * The coupon field of the signed-in pricing page (part 2, section 5): blank or whitespace-only is
 * ignored and Apply is disabled; the code is trimmed before it is sent; once applied the field is locked.
 */
export function CouponField({
  planId,
  applied,
  onApplied,
}: {
  planId: PlanChoice;
  applied: CouponState | null;
  onApplied: (coupon: CouponState) => void;
}) {
  const inputId = useId();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const apply = useApplyCouponMutation();
  const trimmed = code.trim();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!trimmed || applied || apply.isPending) return;
    setError(null);
    apply.mutate(
      { couponCode: trimmed, planId },
      {
        onSuccess: ({ discount, message }) => onApplied({ code: trimmed, discount, message }),
        onError: (failure) => setError(couponError(failure)),
      },
    );
  };

  return (
    // eslint-disable-next-line form/one-form-style -- one code that only the server can judge: its refusal is shown under the field
    <form onSubmit={submit} className="mx-auto w-full max-w-md space-y-2" data-testid="coupon-form" noValidate>
      <Label htmlFor={inputId} className="flex items-center gap-2">
        <Tag className="size-4" aria-hidden="true" />
        Coupon code
      </Label>
      <div className="flex gap-2">
        <Input
          id={inputId}
          value={applied ? applied.code : code}
          onChange={(event) => {
            setCode(event.target.value);
            setError(null);
          }}
          placeholder="Enter a coupon code"
          maxLength={64}
          disabled={Boolean(applied) || apply.isPending}
          aria-invalid={error ? true : undefined}
          aria-describedby={`${inputId}-status`}
          autoComplete="off"
        />
        <Button type="submit" variant="outline" disabled={Boolean(applied) || !trimmed || apply.isPending}>
          {applied ? 'Applied' : apply.isPending ? 'Applying...' : 'Apply'}
        </Button>
      </div>
      <div id={`${inputId}-status`} aria-live="polite" className="min-h-5 text-sm">
        {applied ? (
          <p className="flex items-center gap-1.5 text-green-700" data-testid="coupon-applied">
            <Check className="size-4" aria-hidden="true" />
            {applied.message}
          </p>
        ) : error ? (
          <p role="alert" className="text-destructive" data-testid="coupon-error">
            {error}
          </p>
        ) : null}
      </div>
    </form>
  );
}
