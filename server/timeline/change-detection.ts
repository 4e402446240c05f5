import type { TimelineSeries } from '@contracts/timeline';

/*
 * Change detection on one series (ADR 035): a point is a drop when it is worse than the median of
 * the points before it by both an absolute and a relative margin, judged only on points with enough
 * messages (or seeds) behind them. Simple on purpose: the user can check every drop by eye.
 */

/** How many earlier points make the baseline, and the fewest that may. */
export const BASELINE_POINTS = 5;
export const MIN_BASELINE_POINTS = 3;

export interface DetectionRule {
  /** Which way is bad: placement and DMARC pass rates fall, bounce, complaint and spam rates rise. */
  bad: 'fall' | 'rise';
  /** The fewest messages (or seeds) behind a point for it to count; null: the source gives no count, every point counts. */
  minSample: number | null;
  /** The change, in percentage points, a drop needs at least. */
  minPoints: number;
  /** And relative to the baseline: 0.2 is a fall of a fifth, 1 a doubling. */
  minRelative: number;
}

/** Every series family's rule; the key's part before ':' picks it, except placement:all. */
export const DETECTION_RULES = {
  placement: { bad: 'fall', minSample: 2, minPoints: 15, minRelative: 0.2 },
  'placement:all': { bad: 'fall', minSample: 3, minPoints: 15, minRelative: 0.2 },
  dmarc: { bad: 'fall', minSample: 50, minPoints: 10, minRelative: 0.1 },
  bounce: { bad: 'rise', minSample: 100, minPoints: 2, minRelative: 1 },
  complaint: { bad: 'rise', minSample: 1000, minPoints: 0.1, minRelative: 1 },
  gmail: { bad: 'rise', minSample: null, minPoints: 0.1, minRelative: 1 },
} as const satisfies Record<string, DetectionRule>;

export function ruleOf(seriesKey: string): DetectionRule | undefined {
  if (seriesKey in DETECTION_RULES) return DETECTION_RULES[seriesKey as keyof typeof DETECTION_RULES];
  const family = seriesKey.split(':')[0]!;
  return family in DETECTION_RULES ? DETECTION_RULES[family as keyof typeof DETECTION_RULES] : undefined;
}

export interface DetectedChange {
  series: string;
  label: string;
  at: string;
  /** The baseline (median of the points before) and the point's value, in percent. */
  before: number;
  after: number;
  bad: DetectionRule['bad'];
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function isDrop(rule: DetectionRule, baseline: number, value: number): boolean {
  const change = rule.bad === 'fall' ? baseline - value : value - baseline;
  if (change < rule.minPoints) return false;
  // From a baseline of 0 any rise of minPoints is a drop; a fall from 0 cannot happen.
  return baseline === 0 ? rule.bad === 'rise' : change / baseline >= rule.minRelative;
}

/**
 * The drops of a series, oldest first. A drop that lasts is reported once, at its first point: the
 * next point is a new drop only after one that was not (the series recovered in between).
 */
export function detectChanges(series: TimelineSeries, rule: DetectionRule): DetectedChange[] {
  const eligible = series.points.filter((p) =>
    rule.minSample === null ? true : p.sample !== null && p.sample >= rule.minSample,
  );
  const changes: DetectedChange[] = [];
  let inDrop = false;
  for (let i = 0; i < eligible.length; i++) {
    const earlier = eligible.slice(Math.max(0, i - BASELINE_POINTS), i);
    if (earlier.length < MIN_BASELINE_POINTS) continue;
    const point = eligible[i]!;
    const baseline = median(earlier.map((p) => p.value));
    const drop = isDrop(rule, baseline, point.value);
    if (drop && !inDrop)
      changes.push({
        series: series.key,
        label: series.label,
        at: point.at,
        before: baseline,
        after: point.value,
        bad: rule.bad,
      });
    inDrop = drop;
  }
  return changes;
}
