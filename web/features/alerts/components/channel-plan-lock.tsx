import { Link } from 'react-router';
import { Lock } from 'lucide-react';
import { Button } from '../../../components/ui/button';
import { isLivePath } from '../../../lib/live-routes';
import { PATHS } from '../../../lib/paths';

/**
 * Slack, SMS and webhook alerts for a plan without advanced_alerting (part 2, sections 2 and 6). The
 * Upgrade button appears once the pricing page is built: nothing links to a screen that is not.
 */
export function ChannelPlanLock() {
  const pricingLive = isLivePath(PATHS.pricing);
  return (
    <div role="note" data-testid="channels-plan-lock" className="flex flex-col gap-2 rounded-md border border-yellow-200 bg-yellow-50 p-4 text-yellow-900">
      <p className="flex items-center gap-2 font-semibold">
        <Lock className="size-4" aria-hidden="true" />
        Requires Professional plan
      </p>
      <p className="text-sm">
        Slack, SMS and webhook alerts come with the Professional plan. On your plan, alerts reach you by e-mail and on this page.
        {pricingLive ? '' : ' Plans can be changed here once the Pricing page is available.'}
      </p>
      {pricingLive && (
        <Button asChild className="self-start">
          <Link to={`${PATHS.pricing}?highlight=advanced_alerting`}>Upgrade</Link>
        </Button>
      )}
    </div>
  );
}
