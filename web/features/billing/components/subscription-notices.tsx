import { AlertTriangle, CheckCircle2, X } from 'lucide-react';
import { Link } from 'react-router';
import { BILLING_MESSAGES, PLAN_OF_PRICE, BillingPriceId, type Subscription } from '@contracts/billing';
import { PLAN_LABELS } from '@contracts/plans';
import { Button } from '../../../components/ui/button';
import { PATHS } from '../../../lib/paths';
import { needsPayment } from '../subscription-status';

/** Part 2, section 8: past due, and a paid subscription that still needs its payment (with a link to /pricing). */
export function PaymentNotices({ subscription }: { subscription: Subscription }) {
  if (subscription.status === 'past_due')
    return (
      <p
        role="alert"
        className="flex items-start gap-2 rounded-md border border-red-200 bg-red-50 p-4 text-sm text-red-900"
        data-testid="past-due-notice"
      >
        <AlertTriangle className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
        {BILLING_MESSAGES.pastDue}
      </p>
    );
  if (needsPayment(subscription))
    return (
      <div
        role="alert"
        className="flex flex-wrap items-center gap-3 rounded-md border border-yellow-200 bg-yellow-50 p-4 text-sm text-yellow-900"
        data-testid="incomplete-notice"
      >
        <AlertTriangle className="size-4 shrink-0" aria-hidden="true" />
        <span className="flex-1">{BILLING_MESSAGES.paymentPending}</span>
        <Button asChild size="sm">
          <Link to={PATHS.pricing}>Go to Pricing</Link>
        </Button>
      </div>
    );
  return null;
}

/** The return markers after a payment (part 2, section 2): ?payment=success&plan={planId}, or ?upgrade=success. */
export type ReturnMarker = { kind: 'payment'; planId: BillingPriceId | null } | { kind: 'upgrade' } | null;

export function readReturnMarker(params: URLSearchParams): ReturnMarker {
  if (params.get('upgrade') === 'success') return { kind: 'upgrade' };
  if (params.get('payment') === 'success') {
    const plan = BillingPriceId.safeParse(params.get('plan'));
    return { kind: 'payment', planId: plan.success ? plan.data : null };
  }
  return null;
}

/**
 * What the page says on return from checkout. After a card payment Stripe tells the server by
 * webhook, which may come a moment after the browser: until the subscription is active the page
 * says the payment is being confirmed (and asks again, see useSubscription's polling).
 */
export function ReturnNotice({
  marker,
  subscription,
  onDismiss,
}: {
  marker: ReturnMarker;
  subscription: Subscription;
  onDismiss: () => void;
}) {
  if (!marker) return null;
  const active = subscription.status === 'active';
  const planLabel =
    marker.kind === 'payment' && marker.planId
      ? PLAN_LABELS[PLAN_OF_PRICE[marker.planId]]
      : PLAN_LABELS[subscription.plan];
  const text =
    marker.kind === 'upgrade'
      ? BILLING_MESSAGES.upgraded
      : active
        ? `Payment successful: your ${planLabel} is active.`
        : `Payment received: we are confirming your ${planLabel} with the payment provider. This page updates by itself.`;
  return (
    <div
      role="status"
      className="flex items-start gap-2 rounded-md border border-green-200 bg-green-50 p-4 text-sm text-green-900"
      data-testid="return-notice"
    >
      <CheckCircle2 className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
      <span className="flex-1">{text}</span>
      <button
        type="button"
        onClick={onDismiss}
        aria-label="Dismiss"
        className="rounded-sm opacity-70 hover:opacity-100"
      >
        <X className="size-4" aria-hidden="true" />
      </button>
    </div>
  );
}
