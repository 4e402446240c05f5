import { useState } from 'react';
import { CreditCard, ExternalLink, Info } from 'lucide-react';
import { Link } from 'react-router';
import { BILLING_ERRORS, BILLING_MESSAGES, type BillingMode, type SubscriptionResponse } from '@contracts/billing';
import { PLAN_LABELS } from '@contracts/plans';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card';
import { Pill } from '../../../components/ui/pill';
import { toast } from '../../../components/ui/use-toast';
import { serverMessageOr } from '../../../lib/api-client';
import { formatDate } from '../../../lib/format';
import { PATHS } from '../../../lib/paths';
import { useBillingPortalMutation, useCancelMutation, useReactivateMutation } from '../api';
import { subscriptionPriceLabel } from '../pricing-plans';
import { canCancel, statusBadge } from '../subscription-status';

const failed = (description: string) => toast({ title: 'Error', description, variant: 'destructive' });

/**
 * POST /api/subscription/billing-portal, opened in a new tab (part 2, section 7). The tab is opened
 * on the click itself, before the answer, so a pop-up blocker lets it through; it is closed again
 * when the server refuses.
 */
function BillingPortalButton() {
  const portal = useBillingPortalMutation();
  const open = () => {
    const tab = window.open('about:blank', '_blank');
    if (!tab) return failed(BILLING_ERRORS.portalOpen);
    portal.mutate(undefined, {
      onSuccess: (url) => {
        tab.opener = null;
        tab.location.href = url;
      },
      onError: () => {
        tab.close();
        failed(BILLING_ERRORS.portalAccess);
      },
    });
  };
  return (
    <Button variant="outline" onClick={open} disabled={portal.isPending}>
      <ExternalLink aria-hidden="true" />
      {portal.isPending ? 'Opening...' : 'Manage Billing'}
    </Button>
  );
}

function CancelDialog({
  open,
  onOpenChange,
  endsOn,
  plan,
  mode,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  endsOn: string | null;
  plan: string;
  mode: BillingMode;
}) {
  const cancel = useCancelMutation();
  const confirm = () =>
    cancel.mutate(undefined, {
      onSuccess: (message) => toast({ title: 'Subscription canceled', description: message }),
      onError: (error) => failed(serverMessageOr(error, BILLING_ERRORS.cancel)),
      onSettled: () => onOpenChange(false),
    });
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={onOpenChange}
      title="Cancel your subscription?"
      description={
        mode === 'self-hosted'
          ? `Billing is not configured on this server, so there is no paid period to run out: your account moves to the Free plan at once.`
          : endsOn
            ? `You keep the ${plan} until ${formatDate(endsOn)}. After that your account moves to the Free plan. You can reactivate before then.`
            : `Your account moves to the Free plan at the end of the billing period. You can reactivate before then.`
      }
      cancelLabel="Keep Subscription"
      confirmLabel="Cancel Subscription"
      pendingLabel="Canceling..."
      pending={cancel.isPending}
      onConfirm={confirm}
      testId="cancel-dialog"
    />
  );
}

function ReactivateButton() {
  const reactivate = useReactivateMutation();
  return (
    <Button
      onClick={() =>
        reactivate.mutate(undefined, {
          onSuccess: (message) => toast({ title: 'Subscription reactivated', description: message }),
          onError: (error) => failed(serverMessageOr(error, BILLING_ERRORS.reactivate)),
        })
      }
      disabled={reactivate.isPending}
    >
      {reactivate.isPending ? 'Reactivating...' : 'Reactivate Subscription'}
    </Button>
  );
}

/** Current plan, status badge, next billing date and the actions (part 2, sections 2 and 4). */
export function CurrentPlanCard({ data }: { data: SubscriptionResponse }) {
  const { subscription, billing } = data;
  const [canceling, setCanceling] = useState(false);
  const badge = statusBadge(subscription);
  const planLabel = PLAN_LABELS[subscription.plan];
  const paid = subscription.plan !== 'free';
  const dateLabel = subscription.cancel_at_period_end ? 'Access until' : 'Next billing date';
  const price =
    billing.mode === 'self-hosted' && paid
      ? 'No charge: billing is not configured on this server'
      : subscriptionPriceLabel(subscription);
  const endsOn = formatDate(subscription.current_period_end);
  return (
    <Card data-testid="current-plan">
      <CardHeader className="flex flex-row flex-wrap items-start justify-between gap-3 space-y-0">
        <div className="space-y-1.5">
          <CardTitle className="flex items-center gap-2 text-lg">
            <CreditCard className="size-5 text-primary" aria-hidden="true" />
            Current Plan
          </CardTitle>
          <p className="text-2xl font-bold" data-testid="current-plan-name">
            {planLabel}
          </p>
          <p className="text-sm text-muted-foreground" data-testid="current-plan-price">
            {subscription.cancel_at_period_end ? `${price} until ${endsOn}, then the ${PLAN_LABELS.free} at $0` : price}
          </p>
        </div>
        <Pill tone={badge.tone} testId="subscription-status">
          {badge.label}
        </Pill>
      </CardHeader>
      <CardContent className="space-y-6">
        <dl className="grid gap-4 text-sm sm:grid-cols-2">
          <div>
            <dt className="text-muted-foreground">{dateLabel}</dt>
            <dd className="font-medium" data-testid="next-billing-date">
              {endsOn}
            </dd>
          </div>
          {subscription.coupon && (
            <div>
              <dt className="text-muted-foreground">Coupon</dt>
              <dd className="font-medium" data-testid="subscription-coupon">
                {subscription.coupon.code}
                {subscription.coupon.percentOff !== null && ` (${subscription.coupon.percentOff}% off)`}
              </dd>
            </div>
          )}
        </dl>

        {subscription.cancel_at_period_end && (
          <div
            role="status"
            className="flex flex-col gap-3 rounded-md border border-yellow-200 bg-yellow-50 p-4 text-sm text-yellow-900"
            data-testid="cancel-notice"
          >
            <p>
              Your subscription is canceled and ends on <strong>{endsOn}</strong>. You keep access to the {planLabel}{' '}
              until then; after that your account moves to the {PLAN_LABELS.free}.
            </p>
            <ReactivateButton />
          </div>
        )}

        {billing.mode === 'self-hosted' && (
          <p
            className="flex items-start gap-2 rounded-md border bg-muted/50 p-3 text-sm"
            data-testid="billing-not-configured"
          >
            <Info className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
            {BILLING_MESSAGES.notConfigured}: there is no billing portal and no card payment. Plan changes on the
            Pricing page take effect at once.
          </p>
        )}

        <div className="flex flex-wrap gap-3">
          <Button asChild>
            <Link to={PATHS.pricing}>{paid ? 'Change Plan' : 'Upgrade'}</Link>
          </Button>
          {billing.mode === 'stripe' && <BillingPortalButton />}
          {canCancel(subscription) && (
            <Button variant="outline" onClick={() => setCanceling(true)}>
              Cancel Subscription
            </Button>
          )}
        </div>
      </CardContent>
      <CancelDialog
        open={canceling}
        onOpenChange={setCanceling}
        endsOn={subscription.current_period_end}
        plan={planLabel}
        mode={billing.mode}
      />
    </Card>
  );
}
