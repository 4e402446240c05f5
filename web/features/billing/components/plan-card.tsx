import type { ReactNode } from 'react';
import { PlanInclusions } from '../../../components/plan-inclusions';
import { cn } from '../../../lib/utils';
import { formatCount } from '../../../lib/format';
import type { BillingPeriod, PricingPlan } from '../pricing-plans';

/** The price line of a card in the chosen period: '$49' 'per month', '$40' 'per month, billed annually ($480 a year)'. */
export function priceOf(plan: PricingPlan, period: BillingPeriod): { amount: string; unit: string } {
  if (plan.monthlyPrice === null) return { amount: 'Custom', unit: plan.period };
  if (plan.monthlyPrice === 0) return { amount: '$0', unit: plan.period };
  if (period === 'annual' && plan.annualPrice !== null) {
    return {
      amount: `$${plan.annualPrice}`,
      unit: `per month, billed annually ($${formatCount(plan.annualPrice * 12)} a year)`,
    };
  }
  return { amount: `$${plan.monthlyPrice}`, unit: plan.period };
}

/**
 * One plan of the pricing page. `highlighted` is the plan an upgrade prompt named (?highlight= or
 * ?plan=): it is outlined and scrolled to. `action` is the button, which depends on who is looking.
 */
export function PlanCard({
  plan,
  period,
  highlighted,
  current,
  note,
  action,
}: {
  plan: PricingPlan;
  period: BillingPeriod;
  highlighted: boolean;
  current: boolean;
  note?: ReactNode;
  action: ReactNode;
}) {
  const price = priceOf(plan, period);
  return (
    <li
      id={`plan-${plan.id}`}
      aria-labelledby={`plan-${plan.id}-name`}
      data-testid={`plan-card-${plan.id}`}
      data-highlighted={highlighted || undefined}
      className={cn(
        'relative flex scroll-mt-24 flex-col rounded-2xl border bg-card p-6 shadow-sm',
        plan.popular && 'border-primary shadow-lg',
        highlighted && 'ring-4 ring-primary/60',
      )}
    >
      {plan.popular && (
        <p className="absolute -top-3 left-1/2 -translate-x-1/2 rounded-full bg-primary px-3 py-1 text-xs font-semibold whitespace-nowrap text-primary-foreground">
          Most Popular
        </p>
      )}
      <div>
        <h2 id={`plan-${plan.id}-name`} className="flex flex-wrap items-center gap-2 text-xl font-semibold">
          {plan.name}
          {current && (
            <span className="rounded-full bg-secondary px-2 py-0.5 text-xs font-medium text-secondary-foreground">
              Your plan
            </span>
          )}
        </h2>
        <p className="mt-2 text-sm text-muted-foreground">{plan.description}</p>
        <p className="mt-4 flex flex-wrap items-baseline gap-x-2" data-testid={`plan-price-${plan.id}`}>
          <span className="text-4xl font-bold tracking-tight">{price.amount}</span>
          <span className="text-sm text-muted-foreground">{price.unit}</span>
        </p>
        {note}
      </div>
      <PlanInclusions name={plan.name} features={plan.features} limitations={plan.limitations} />
      <div className="mt-auto pt-6">{action}</div>
    </li>
  );
}
