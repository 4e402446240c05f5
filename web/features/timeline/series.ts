import { POSTMASTER_MANAGE_PATH } from '@contracts/postmaster';
import type { TimelineSeries } from '@contracts/timeline';
import { PATHS } from '../../lib/paths';

/**
 * Where each kind of series comes from (contracts/timeline.ts). The API sends only the series that
 * have data, so a source with none is named with what would feed it instead of an empty chart.
 */
export interface SeriesSource {
  id: 'placement' | 'dmarc' | 'rates' | 'postmaster';
  name: string;
  matches: (key: string) => boolean;
  /** What to do to see this series here. */
  missing: string;
  action: { label: string; to: string };
}

export const SERIES_SOURCES: readonly SeriesSource[] = [
  {
    id: 'placement',
    name: 'Inbox placement',
    matches: (key) => key.startsWith('placement:'),
    missing: 'Run an inbox placement test to see placement here.',
    action: { label: 'Run Inbox Test', to: PATHS.inboxPlacement },
  },
  {
    id: 'dmarc',
    name: 'DMARC pass rate',
    matches: (key) => key === 'dmarc:pass',
    missing:
      "Add InboxPulse's report address to your DMARC record's rua= tag (Domains, DMARC reports) to see the DMARC pass rate here.",
    action: { label: 'Open Domains', to: PATHS.domains },
  },
  {
    id: 'rates',
    name: 'Bounce and complaint rates',
    matches: (key) => key === 'bounce:rate' || key === 'complaint:rate',
    missing: 'Connect an ESP or your MTA to see bounce and complaint rates here.',
    action: { label: 'Connect ESP', to: PATHS.integrations },
  },
  {
    id: 'postmaster',
    name: 'Gmail spam rate',
    matches: (key) => key === 'gmail:spam',
    missing: "Connect Google Postmaster Tools to see Gmail's spam rate here.",
    action: { label: 'Connect Postmaster Tools', to: POSTMASTER_MANAGE_PATH },
  },
];

/** The sources none of whose series came back. */
export function missingSources(
  series: readonly TimelineSeries[],
  sources: readonly SeriesSource[] = SERIES_SOURCES,
): SeriesSource[] {
  return sources.filter((source) => !series.some((s) => s.points.length > 0 && source.matches(s.key)));
}

/**
 * Rates that live near zero (a 0.3% complaint rate) next to shares near 100 (placement) would be a
 * flat line on one scale: they get the right-hand axis of their own.
 */
export function isLowRate(key: string): boolean {
  return key === 'bounce:rate' || key === 'complaint:rate' || key === 'gmail:spam';
}

/** Complaint and spam rates have thresholds at tenths of a percent (part 1, 2.8): two decimals. */
export function decimalsOf(key: string): number {
  return key === 'complaint:rate' || key === 'gmail:spam' ? 2 : 1;
}

/** What `sample` counts for a series: seed mailboxes for placement, messages for the rest. */
export function sampleUnit(key: string, sample: number): string {
  const seeds = key.startsWith('placement:');
  return seeds ? (sample === 1 ? 'seed' : 'seeds') : sample === 1 ? 'message' : 'messages';
}

const PALETTE = [
  '#2563eb',
  '#16a34a',
  '#d97706',
  '#9333ea',
  '#0891b2',
  '#db2777',
  '#65a30d',
  '#4f46e5',
  '#ea580c',
  '#0d9488',
];
const FIXED: Record<string, string> = {
  'placement:all': '#1e3a8a',
  'dmarc:pass': '#16a34a',
  'bounce:rate': '#d97706',
  'complaint:rate': '#dc2626',
  'gmail:spam': '#b91c1c',
};

/** A colour per series, the same in the chart and in its legend. */
export function seriesColors(series: readonly TimelineSeries[]): Map<string, string> {
  const colors = new Map<string, string>();
  let next = 0;
  for (const s of series) colors.set(s.key, FIXED[s.key] ?? PALETTE[next++ % PALETTE.length]);
  return colors;
}
