import { Link } from 'react-router';
import { Lock } from 'lucide-react';
import { lowestPlanWith, PLAN_NAMES, type PlanFeature, type PlanId } from '@contracts/plans';
import { Button } from './ui/button';
import { PATHS } from '../lib/paths';
import { cn } from '../lib/utils';

/**
 * Where an upgrade prompt leads (part 1, section 2.7): Upgrade to /pricing?plan={plan}, where that
 * plan's card waits with its button; Compare Plans to /pricing?highlight={plan}, the plan outlined among the others.
 */
export function upgradeLinks(plan: PlanId): { upgrade: string; compare: string } {
  return { upgrade: `${PATHS.pricing}?plan=${plan}`, compare: `${PATHS.pricing}?highlight=${plan}` };
}

/**
 * The one upgrade prompt: what a plan without `feature` sees instead of it (part 1, section 6:
 * 'Requires {plan} plan' with an Upgrade button). The plan is the cheapest on the pricing page that
 * has the feature, the one the server's 403 names. `inline` is the banner inside a form or dialog;
 * `card` stands where the feature's card would be, with a title and Compare Plans beside Upgrade.
 */
export function PlanRequiredBanner({
  feature,
  children,
  testId,
  variant = 'inline',
  title,
}: {
  feature: PlanFeature;
  children: string;
  testId: string;
  variant?: 'inline' | 'card';
  /** The card's heading: the feature's name ("Advanced Analytics"). */
  title?: string;
}) {
  const plan = lowestPlanWith(feature);
  const links = upgradeLinks(plan);
  const requires = `Requires ${PLAN_NAMES[plan]} plan`;
  return (
    <div
      role="note"
      data-testid={testId}
      className={cn(
        'flex flex-col gap-3 rounded-md border p-4',
        variant === 'inline'
          ? 'border-yellow-200 bg-yellow-50 text-yellow-900'
          : 'rounded-lg bg-card p-6 text-card-foreground shadow-sm',
      )}
    >
      {title && <h2 className="text-lg font-semibold">{title}</h2>}
      <p className={cn('flex items-center gap-2 font-semibold', variant === 'card' && 'text-sm text-yellow-800')}>
        <Lock className="size-4" aria-hidden="true" />
        {requires}
      </p>
      <p className={cn('text-sm', variant === 'card' && 'text-muted-foreground')}>{children}</p>
      <div className="flex flex-wrap gap-2">
        <Button asChild size={variant === 'inline' ? 'default' : 'sm'}>
          <Link to={links.upgrade}>Upgrade</Link>
        </Button>
        {variant === 'card' && (
          <Button asChild size="sm" variant="outline">
            <Link to={links.compare}>Compare Plans</Link>
          </Button>
        )}
      </div>
    </div>
  );
}
