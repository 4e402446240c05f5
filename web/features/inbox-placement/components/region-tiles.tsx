import { Globe2 } from 'lucide-react';
import { Card } from '../../../components/ui/card';
import { Skeleton } from '../../../components/ui/skeleton';
import type { SeedNetworkView } from '../seed-network';

/** The region tiles (part 2, section 2): the real seed network's regions, or the spec's tiles when the status call failed. */
export function RegionTiles({ view }: { view: SeedNetworkView }) {
  if (view.kind === 'not-configured') return null;
  if (view.kind === 'loading') {
    return (
      <div className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5" aria-hidden="true">
        {Array.from({ length: 5 }, (_, index) => (
          <Skeleton key={index} className="h-20" />
        ))}
      </div>
    );
  }
  return (
    <ul
      aria-label="Seed providers by region"
      className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5"
      data-testid="region-tiles"
    >
      {view.tiles.map(({ region, providers }) => (
        <li key={region}>
          <Card className="flex h-full flex-col gap-1 p-4" data-testid="region-tile">
            <span className="flex items-center gap-1.5 text-xs font-medium text-muted-foreground">
              <Globe2 className="size-3.5 shrink-0" aria-hidden="true" />
              <span className="min-w-0 break-words">{region}</span>
            </span>
            <span className="text-2xl font-bold">{providers}</span>
            <span className="text-xs text-muted-foreground">{providers === 1 ? 'provider' : 'providers'}</span>
          </Card>
        </li>
      ))}
    </ul>
  );
}
