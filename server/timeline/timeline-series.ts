import type { TimelinePoint, TimelineSeries } from '@contracts/timeline';
import type { DayVolumes } from '@contracts/figures';
import { dayStart, utcDay } from '@contracts/utc-day';
import type { DmarcDay, ProviderPlacement, SpamDay, TestRow } from '../insights/timeline-figures';

/*
 * The series of a timeline, built from the rows the repo read. Every value is a percentage; a point
 * with nothing behind it (no seeds, no messages) is left out rather than drawn as 0.
 */

/** The series whose points are whole UTC days (placed at the day's start); the others are inbox tests. */
export const DAILY_SERIES = new Set(['dmarc:pass', 'bounce:rate', 'complaint:rate', 'gmail:spam']);

const pct = (part: number, whole: number) => Math.round((part / whole) * 100 * 10_000) / 10_000;
const slug = (provider: string) =>
  provider
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '') || 'unknown';

function series(key: string, label: string, points: TimelinePoint[]): TimelineSeries {
  return { key, label, unit: 'percent', points };
}

/** placement:all from every test, and placement:<provider> from the seeds of each provider (oldest first). */
export function placementSeries(tests: readonly TestRow[], placements: readonly ProviderPlacement[]): TimelineSeries[] {
  const oldestFirst = [...tests].sort((a, b) => a.completedAt.getTime() - b.completedAt.getTime() || a.id - b.id);
  const all = series(
    'placement:all',
    'Inbox placement (all providers)',
    oldestFirst
      .filter((t) => t.totalSeeds > 0)
      .map((t) => ({ at: t.completedAt.toISOString(), value: pct(t.inboxCount, t.totalSeeds), sample: t.totalSeeds })),
  );
  // Providers written alike ("Gmail", "gmail") are one series, named as first seen.
  const byKey = new Map<string, { label: string; perTest: Map<number, { inbox: number; seeds: number }> }>();
  for (const p of placements) {
    const key = `placement:${slug(p.provider)}`;
    const entry = byKey.get(key) ?? { label: `Inbox placement at ${p.provider}`, perTest: new Map() };
    const sums = entry.perTest.get(p.testId) ?? { inbox: 0, seeds: 0 };
    entry.perTest.set(p.testId, { inbox: sums.inbox + p.inbox, seeds: sums.seeds + p.seeds });
    byKey.set(key, entry);
  }
  const providers = [...byKey.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([key, { label, perTest }]) =>
      series(
        key,
        label,
        oldestFirst.flatMap((t) => {
          const sums = perTest.get(t.id);
          return sums && sums.seeds > 0
            ? [{ at: t.completedAt.toISOString(), value: pct(sums.inbox, sums.seeds), sample: sums.seeds }]
            : [];
        }),
      ),
    );
  return [all, ...providers].filter((s) => s.points.length > 0);
}

export function dmarcSeries(days: readonly DmarcDay[]): TimelineSeries[] {
  const points = days
    .filter((d) => d.total > 0)
    .map((d) => ({ at: dayStart(d.day).toISOString(), value: pct(d.total - d.failed, d.total), sample: d.total }));
  return points.length ? [series('dmarc:pass', 'DMARC pass rate', points)] : [];
}

/**
 * Bounces over sent; complaints over delivered, as Postmaster Tools and the alert evaluation count
 * them. `of` names whose figures they are when not only this domain's or IP's ("all domains").
 */
export function metricSeries(days: readonly DayVolumes[], of?: string): TimelineSeries[] {
  const named = (label: string) => (of ? `${label} (${of})` : label);
  const bounce = days
    .filter((d) => d.sent > 0)
    .map((d) => ({ at: dayStart(d.date).toISOString(), value: pct(d.bounced, d.sent), sample: d.sent }));
  const complaint = days
    .filter((d) => d.delivered > 0)
    .map((d) => ({ at: dayStart(d.date).toISOString(), value: pct(d.complaints, d.delivered), sample: d.delivered }));
  return [
    series('bounce:rate', named('Bounce rate'), bounce),
    series('complaint:rate', named('Complaint rate'), complaint),
  ].filter((s) => s.points.length > 0);
}

/** Gmail's user-reported spam rate; Google gives no message count, so the sample is null. */
export function gmailSpamSeries(days: readonly SpamDay[]): TimelineSeries[] {
  const points = days.map((d) => ({
    at: dayStart(d.date).toISOString(),
    value: Math.round(d.ratio * 100 * 10_000) / 10_000,
    sample: null,
  }));
  return points.length ? [series('gmail:spam', 'Gmail spam rate', points)] : [];
}

/** Where a series' part of the window starts: `from`, or for a daily series the start of from's day. */
export function seriesStart(key: string, from: Date): number {
  return DAILY_SERIES.has(key) ? dayStart(utcDay(from)).getTime() : from.getTime();
}

/** The series cut to their part of the window; a series left without points is left out. */
export function within(all: readonly TimelineSeries[], from: Date): TimelineSeries[] {
  return all
    .map((s) => {
      const since = seriesStart(s.key, from);
      return { ...s, points: s.points.filter((p) => Date.parse(p.at) >= since) };
    })
    .filter((s) => s.points.length > 0);
}
