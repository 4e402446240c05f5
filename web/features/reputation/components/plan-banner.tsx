import { Link } from 'react-router';
import { Lock } from 'lucide-react';
import { Button } from '../../../components/ui/button';
import { isLivePath } from '../../../lib/live-routes';
import { PATHS } from '../../../lib/paths';

/**
 * Bulk Import for a plan without bulk_ip_import (part 2, sections 2 and 6). The Upgrade button goes
 * to the pricing page with the feature highlighted, once that page is built: nothing links to a
 * screen that is not (content/screens.ts).
 */
export function BulkImportPlanBanner() {
  const pricingLive = isLivePath(PATHS.pricing);
  return (
    <div role="note" data-testid="bulk-import-plan-banner" className="flex flex-col gap-3 rounded-md border border-yellow-200 bg-yellow-50 p-4 text-yellow-900">
      <p className="flex items-center gap-2 font-semibold">
        <Lock className="size-4" aria-hidden="true" />
        Requires Professional plan
      </p>
      <p className="text-sm">
        Bulk import adds a whole CIDR block at once. On your plan, add addresses one at a time with Single IP.
        {pricingLive ? '' : ' Plans can be changed here once the Pricing page is available.'}
      </p>
      {pricingLive && (
        <Button asChild className="self-start">
          <Link to={`${PATHS.pricing}?highlight=bulk_ip_import`}>Upgrade</Link>
        </Button>
      )}
    </div>
  );
}
