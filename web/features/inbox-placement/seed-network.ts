import type { SeedNetworkStatus } from '@contracts/inbox-tests';

export interface RegionCount {
  region: string;
  providers: number;
}

/** Part 2, section 9: the figures shown when the status call returns nothing. */
export const DEFAULT_SEED_NETWORK = {
  totalProviders: 31,
  totalAddresses: 42,
  regions: [
    { region: 'North America', providers: 8 },
    { region: 'Europe', providers: 7 },
    { region: 'Asia Pacific', providers: 6 },
    { region: 'Latin America', providers: 5 },
    { region: 'Middle East & Africa', providers: 5 },
  ],
} as const satisfies { totalProviders: number; totalAddresses: number; regions: readonly RegionCount[] };

/** Part 2, section 2: the region tiles' own figures, used for the tiles when the status call fails. */
export const DEFAULT_REGION_TILES: readonly RegionCount[] = [
  { region: 'North America', providers: 15 },
  { region: 'Europe', providers: 12 },
  { region: 'Asia Pacific', providers: 10 },
  { region: 'Latin America', providers: 5 },
  { region: 'Africa & Middle East', providers: 3 },
];

const REGION_ORDER = [
  'North America',
  'Europe',
  'Asia Pacific',
  'Latin America',
  'Middle East & Africa',
  'Africa & Middle East',
];

function rank(region: string): number {
  const index = REGION_ORDER.indexOf(region);
  return index === -1 ? REGION_ORDER.length : index;
}

/** byRegion in the spec's order of regions; regions it does not name follow, by name. */
export function regionsOf(byRegion: SeedNetworkStatus['byRegion']): RegionCount[] {
  return Object.entries(byRegion)
    .map(([region, providers]) => ({ region, providers }))
    .sort((a, b) => rank(a.region) - rank(b.region) || a.region.localeCompare(b.region));
}

/**
 * What the page says about the seed network:
 * - `live`: the server's real figures;
 * - `not-configured`: no seed network, tests run on InboxPulse's own analyser (no invented numbers);
 * - `fallback`: the status call failed and never answered, so the spec's defaults are shown;
 * - `loading`: no answer yet.
 */
export type SeedNetworkView =
  | { kind: 'loading' }
  | { kind: 'not-configured' }
  | {
      kind: 'live' | 'fallback';
      totalProviders: number;
      totalAddresses: number;
      regions: RegionCount[];
      tiles: RegionCount[];
    };

export function seedNetworkView(query: { data: SeedNetworkStatus | undefined; isError: boolean }): SeedNetworkView {
  const { data } = query;
  // A failed refresh after a good answer keeps the last real figures: they are still the best we know.
  if (data) {
    if (!data.configured) return { kind: 'not-configured' };
    const regions = regionsOf(data.byRegion);
    return {
      kind: 'live',
      totalProviders: data.totalProviders,
      totalAddresses: data.totalAddresses,
      regions,
      tiles: regions,
    };
  }
  if (query.isError) {
    return {
      kind: 'fallback',
      totalProviders: DEFAULT_SEED_NETWORK.totalProviders,
      totalAddresses: DEFAULT_SEED_NETWORK.totalAddresses,
      regions: [...DEFAULT_SEED_NETWORK.regions],
      tiles: [...DEFAULT_REGION_TILES],
    };
  }
  return { kind: 'loading' };
}
