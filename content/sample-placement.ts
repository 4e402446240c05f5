/**
 * The static sample inbox placement panel of the landing page (part 1, section 2.2). It is a
 * marketing illustration, never a user's data: the page labels it 'Sample results'.
 */
export interface SamplePlacementRow {
  provider: string;
  region: string;
  /** Share of the sample messages that reached the inbox, 0-100. */
  inboxPercent: number;
}

export const SAMPLE_PLACEMENT_LABEL = 'Sample results';

export const SAMPLE_PLACEMENT: SamplePlacementRow[] = [
  { provider: 'Gmail', region: 'North America', inboxPercent: 96 },
  { provider: 'Outlook.com', region: 'North America', inboxPercent: 91 },
  { provider: 'Yahoo Mail', region: 'North America', inboxPercent: 88 },
  { provider: 'GMX', region: 'Europe', inboxPercent: 93 },
  { provider: 'Orange', region: 'Europe', inboxPercent: 84 },
  { provider: 'Naver', region: 'Asia Pacific', inboxPercent: 79 },
  { provider: 'UOL', region: 'Latin America', inboxPercent: 86 },
];
