import { Link } from 'react-router';
import { Lock } from 'lucide-react';
import type { PlanFeature } from '@contracts/plans';
import { Button } from './ui/button';
import { isLivePath } from '../lib/live-routes';
import { PATHS } from '../lib/paths';

/**
 * What a plan without `feature` sees instead of it (part 1 section 6: 'Requires {plan} plan' with an
 * Upgrade button to the pricing page, the feature highlighted). The button appears once the pricing
 * page is built: nothing links to a screen that is not (content/screens.ts).
 */
export function PlanRequiredBanner({ feature, children, testId }: { feature: PlanFeature; children: string; testId: string }) {
  const pricingLive = isLivePath(PATHS.pricing);
  return (
    <div role="note" data-testid={testId} className="flex flex-col gap-3 rounded-md border border-yellow-200 bg-yellow-50 p-4 text-yellow-900">
      <p className="flex items-center gap-2 font-semibold">
        <Lock className="size-4" aria-hidden="true" />
        Requires Professional plan
      </p>
      <p className="text-sm">
        {children}
        {pricingLive ? '' : ' Plans can be changed here once the Pricing page is available.'}
      </p>
      {pricingLive && (
        <Button asChild className="self-start">
          <Link to={`${PATHS.pricing}?highlight=${feature}`}>Upgrade</Link>
        </Button>
      )}
    </div>
  );
}
