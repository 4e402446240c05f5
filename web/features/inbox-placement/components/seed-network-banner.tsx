import { CircleCheck, Info, TriangleAlert } from 'lucide-react';
import { Spinner } from '../../../components/ui/spinner';
import type { RegionCount, SeedNetworkView } from '../seed-network';

const BOX = 'flex items-start gap-3 rounded-lg border p-4 text-sm';

function RegionList({ regions }: { regions: RegionCount[] }) {
  if (regions.length === 0) return null;
  return <p className="mt-1 text-xs">{regions.map(({ region, providers }) => `${region} ${providers}`).join(' · ')}</p>;
}

function figures(view: { totalProviders: number; totalAddresses: number }) {
  return `${view.totalProviders} ${view.totalProviders === 1 ? 'provider' : 'providers'}, ${view.totalAddresses} seed ${view.totalAddresses === 1 ? 'address' : 'addresses'}`;
}

/** The seed-network status banner (part 2, sections 2 and 9); it says plainly where the figures come from. */
export function SeedNetworkBanner({ view }: { view: SeedNetworkView }) {
  switch (view.kind) {
    case 'loading':
      return (
        <div className={`${BOX} bg-muted/50`} data-testid="seed-network-banner" data-state="loading">
          <Spinner className="size-4" label="Checking the seed network" />
          <span>Checking the seed network...</span>
        </div>
      );
    case 'live':
      return (
        <div
          className={`${BOX} border-green-200 bg-green-50 text-green-950`}
          data-testid="seed-network-banner"
          data-state="live"
          role="status"
        >
          <CircleCheck className="mt-0.5 size-4 shrink-0 text-green-700" aria-hidden="true" />
          <div className="min-w-0">
            <p className="font-medium">Seed network active: {figures(view)}</p>
            <RegionList regions={view.regions} />
          </div>
        </div>
      );
    case 'not-configured':
      return (
        <div
          className={`${BOX} border-blue-200 bg-blue-50 text-blue-950`}
          data-testid="seed-network-banner"
          data-state="not-configured"
          role="status"
        >
          <Info className="mt-0.5 size-4 shrink-0 text-blue-700" aria-hidden="true" />
          <div className="min-w-0 space-y-1">
            <p className="font-medium">No seed network is configured.</p>
            <p>
              Tests are analysed by InboxPulse&apos;s own inbound analyser: send your email to the test address and you
              get the full message analysis and one result row, from the analyser, which classes your email as inbox or
              spam by its analysis score. Placement at individual mailbox providers needs seed mailboxes, so no
              per-provider figures are shown.
            </p>
          </div>
        </div>
      );
    case 'fallback':
      return (
        <div
          className={`${BOX} border-yellow-200 bg-yellow-50 text-yellow-950`}
          data-testid="seed-network-banner"
          data-state="fallback"
          role="status"
        >
          <TriangleAlert className="mt-0.5 size-4 shrink-0 text-yellow-700" aria-hidden="true" />
          <div className="min-w-0">
            <p className="font-medium">Seed network status unavailable. Showing the default network: {figures(view)}</p>
            <RegionList regions={view.regions} />
          </div>
        </div>
      );
  }
}
