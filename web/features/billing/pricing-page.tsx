import { useEffect, useState, type ReactNode } from 'react';
import { ChevronRight, Info } from 'lucide-react';
import { Link, useSearchParams } from 'react-router';
import { BILLING_MESSAGES, type SubscriptionResponse } from '@contracts/billing';
import { PLAN_LABELS } from '@contracts/plans';
import { QueryState } from '../../components/query-state';
import { PublicLayout } from '../../components/public-layout';
import { Button } from '../../components/ui/button';
import { Skeleton } from '../../components/ui/skeleton';
import { Spinner } from '../../components/ui/spinner';
import { serverMessageOr } from '../../lib/api-client';
import { PATHS } from '../../lib/paths';
import { useAuth } from '../../lib/session';
import { useSubscription } from './api';
import { BillingPeriodToggle } from './components/billing-period-toggle';
import { CouponField, couponFromSubscription, type CouponState } from './components/coupon-field';
import { DowngradeDialog } from './components/downgrade-dialog';
import { PlanCard } from './components/plan-card';
import { choiceButton, isCurrentChoice, type CardChoice } from './plan-choice';
import {
  choiceFor,
  planFromParam,
  PRICING_PLANS,
  SALES_MAILTO,
  type BillingPeriod,
  type PricingPlan,
} from './pricing-plans';
import { usePlanChoice } from './use-plan-choice';

/** The plan an upgrade prompt named: ?plan= (the user means to take it) or ?highlight= (to look at it). */
function usePromptTarget() {
  const [params] = useSearchParams();
  const chosen = planFromParam(params.get('plan'));
  const highlighted = chosen ?? planFromParam(params.get('highlight'));
  return { target: highlighted, chosen: Boolean(chosen) };
}

/** Scrolls the named plan into view once its card is on the page. */
function useScrollToPlan(planId: string | undefined, ready: boolean) {
  useEffect(() => {
    if (planId && ready) document.getElementById(`plan-${planId}`)?.scrollIntoView?.({ block: 'center' });
  }, [planId, ready]);
}

function Breadcrumbs() {
  return (
    <nav aria-label="Breadcrumb" className="mb-6 text-sm text-muted-foreground">
      <ol className="flex items-center gap-1.5">
        <li>
          <Link to={PATHS.home} className="hover:text-foreground">
            Home
          </Link>
        </li>
        <li aria-hidden="true">
          <ChevronRight className="size-4" />
        </li>
        <li aria-current="page" className="font-medium text-foreground">
          Pricing
        </li>
      </ol>
    </nav>
  );
}

/** The plans side by side, the one an upgrade prompt named highlighted; `cardOf` says which is current and its button. */
function PlanGrid({
  period,
  targetId,
  cardOf,
}: {
  period: BillingPeriod;
  targetId?: string;
  cardOf: (plan: PricingPlan) => { current: boolean; note?: ReactNode; action: ReactNode };
}) {
  return (
    <ul className="mt-10 grid items-stretch gap-6 lg:grid-cols-3">
      {PRICING_PLANS.map((plan) => (
        <PlanCard key={plan.id} plan={plan} period={period} highlighted={plan.id === targetId} {...cardOf(plan)} />
      ))}
    </ul>
  );
}

/** Signed out: "Choose Your Plan"; every button leads to registration (with the plan) or to sales. */
function ChooseYourPlan({
  period,
  setPeriod,
  targetId,
}: {
  period: BillingPeriod;
  setPeriod: (p: BillingPeriod) => void;
  targetId?: string;
}) {
  useScrollToPlan(targetId, true);
  const action = (plan: PricingPlan) => {
    const choice = choiceFor(plan, period);
    if (choice === 'enterprise')
      return (
        <Button asChild variant="outline" className="w-full">
          <a href={SALES_MAILTO}>Contact Sales</a>
        </Button>
      );
    if (choice === 'free')
      return (
        <Button asChild variant="outline" className="w-full">
          <Link to={PATHS.register}>Get Started</Link>
        </Button>
      );
    return (
      <Button asChild className="w-full">
        <Link to={`${PATHS.register}?plan=${choice}`}>Subscribe</Link>
      </Button>
    );
  };
  return (
    <>
      <Breadcrumbs />
      <header className="text-center">
        <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">Choose Your Plan</h1>
        <p className="mt-3 text-muted-foreground">
          Start free and upgrade when you need more. Change or cancel your plan at any time.
        </p>
      </header>
      <div className="mt-8">
        <BillingPeriodToggle value={period} onChange={setPeriod} />
      </div>
      <PlanGrid period={period} targetId={targetId} cardOf={(plan) => ({ current: false, action: action(plan) })} />
    </>
  );
}

/** Signed in: "Manage Your Plan" with the plan choice of part 2, section 4. */
function ManageYourPlan({
  data,
  period,
  setPeriod,
  targetId,
  chosen,
}: {
  data: SubscriptionResponse;
  period: BillingPeriod;
  setPeriod: (p: BillingPeriod) => void;
  targetId?: string;
  chosen: boolean;
}) {
  const { subscription, billing } = data;
  const [appliedHere, setAppliedHere] = useState<CouponState | null>(null);
  const coupon = appliedHere ?? couponFromSubscription(subscription.coupon);
  const planChoice = usePlanChoice(subscription, coupon?.code ?? null);
  useScrollToPlan(targetId, true);

  const action = (plan: PricingPlan) => {
    const choice: CardChoice = choiceFor(plan, period);
    const button = choiceButton(choice, subscription);
    if (button.label === 'Contact Sales')
      return (
        <Button asChild variant="outline" className="w-full">
          <a href={SALES_MAILTO}>Contact Sales</a>
        </Button>
      );
    const pending = planChoice.pendingChoice === choice;
    return (
      <Button
        className="w-full"
        variant={button.label === 'Downgrade to Free' || button.disabled ? 'outline' : 'default'}
        disabled={button.disabled || planChoice.busy}
        onClick={() => planChoice.choose(choice)}
        data-testid={`plan-action-${plan.id}`}
      >
        {pending ? 'Processing...' : button.label}
      </Button>
    );
  };
  const note = (plan: PricingPlan) =>
    coupon?.discount && plan.monthlyPrice ? (
      <p className="mt-2 text-sm font-medium text-green-700">
        {coupon.discount}% off with coupon {coupon.code}
      </p>
    ) : undefined;
  const cardOf = (plan: PricingPlan) => ({
    current:
      isCurrentChoice(choiceFor(plan, period), subscription) || (plan.id !== 'free' && subscription.plan === plan.id),
    note: note(plan),
    action: action(plan),
  });
  const target = PRICING_PLANS.find((plan) => plan.id === targetId);
  const targetButton = target ? choiceButton(choiceFor(target, period), subscription) : null;

  return (
    <>
      <header className="text-center">
        <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">Manage Your Plan</h1>
        <p className="mt-3 text-muted-foreground" data-testid="current-plan-line">
          You are on the {PLAN_LABELS[subscription.plan]}.{' '}
          <Link to={PATHS.subscription} className="font-medium text-primary underline-offset-4 hover:underline">
            View your subscription
          </Link>
        </p>
      </header>
      {billing.mode === 'self-hosted' && (
        <p
          className="mx-auto mt-6 flex max-w-2xl items-start gap-2 rounded-md border bg-muted/50 p-3 text-sm"
          data-testid="billing-not-configured"
        >
          <Info className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          {BILLING_MESSAGES.notConfigured}: no payment is taken here, and a plan change takes effect at once.
        </p>
      )}
      {chosen && target && targetButton && !targetButton.disabled && (
        <p
          role="status"
          className="mx-auto mt-6 max-w-2xl rounded-md border border-primary/40 bg-primary/5 p-3 text-center text-sm"
          data-testid="chosen-plan"
        >
          You chose the {target.name} plan: press {targetButton.label} on its card below to continue.
        </p>
      )}
      <div className="mt-8 space-y-6">
        <BillingPeriodToggle value={period} onChange={setPeriod} />
        <CouponField
          planId={period === 'annual' ? 'professional_annual' : 'professional_monthly'}
          applied={coupon}
          onApplied={setAppliedHere}
        />
      </div>
      <PlanGrid period={period} targetId={targetId} cardOf={cardOf} />
      <DowngradeDialog {...planChoice.downgradeDialog} />
    </>
  );
}

function SignedInPricing(props: {
  period: BillingPeriod;
  setPeriod: (p: BillingPeriod) => void;
  targetId?: string;
  chosen: boolean;
}) {
  const subscription = useSubscription();
  return (
    <QueryState
      query={subscription}
      loading={
        <div className="space-y-6" data-testid="pricing-loading">
          <Skeleton className="mx-auto h-10 w-72" />
          <div className="grid gap-6 lg:grid-cols-3">
            {[0, 1, 2].map((index) => (
              <Skeleton key={index} className="h-96" />
            ))}
          </div>
        </div>
      }
      errorVariant="card"
      errorMessage={(error) => serverMessageOr(error, 'Your plan could not be loaded. Please try again.')}
    >
      {(data) => <ManageYourPlan data={data} {...props} />}
    </QueryState>
  );
}

/** /pricing (part 2, section 2): the plans; different content when signed in. */
export default function PricingPage() {
  const { user, isLoading } = useAuth();
  const { target, chosen } = usePromptTarget();
  const [period, setPeriod] = useState<BillingPeriod>(target?.period ?? 'monthly');
  const props = { period, setPeriod, targetId: target?.plan.id };
  return (
    <PublicLayout>
      <div className="mx-auto max-w-6xl px-4 py-10" data-testid="pricing-page">
        {isLoading ? (
          <div className="flex justify-center py-20">
            <Spinner label="Loading" />
          </div>
        ) : user ? (
          <SignedInPricing {...props} chosen={chosen} />
        ) : (
          <ChooseYourPlan {...props} />
        )}
      </div>
      <p className="mx-auto max-w-6xl px-4 pb-10 text-center text-xs text-muted-foreground">
        Prices in US dollars. See the{' '}
        <Link to={PATHS.termsOfService} className="underline underline-offset-4">
          Terms of Service
        </Link>{' '}
        and the{' '}
        <Link to={PATHS.privacyPolicy} className="underline underline-offset-4">
          Privacy Policy
        </Link>
        .
      </p>
    </PublicLayout>
  );
}
