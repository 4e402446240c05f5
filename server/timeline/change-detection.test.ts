import { describe, expect, it } from 'vitest';
import type { TimelineSeries } from '@contracts/timeline';
import { DETECTION_RULES, detectChanges, median, ruleOf } from './change-detection';

const day = (n: number) => `2026-03-${String(n).padStart(2, '0')}T00:00:00.000Z`;
const series = (key: string, values: (number | [number, number | null])[]): TimelineSeries => ({
  key,
  label: key,
  unit: 'percent',
  points: values.map((v, i) =>
    Array.isArray(v) ? { at: day(i + 1), value: v[0], sample: v[1] } : { at: day(i + 1), value: v, sample: 500 },
  ),
});

describe('change detection', () => {
  it('finds a fall against the median of the points before, once while it lasts, again after a recovery', () => {
    // The baseline is a median: the two low days in it do not move it much (96 for the last point).
    const placement = series('dmarc:pass', [98, 97, 99, 98, 60, 58, 97, 98, 96, 55]);
    expect(detectChanges(placement, DETECTION_RULES.dmarc)).toEqual([
      { series: 'dmarc:pass', label: 'dmarc:pass', at: day(5), before: 98, after: 60, bad: 'fall' },
      { series: 'dmarc:pass', label: 'dmarc:pass', at: day(10), before: 96, after: 55, bad: 'fall' },
    ]);
  });

  it('needs three earlier points, enough messages behind a point, and both margins', () => {
    // Two points before: no baseline yet.
    expect(detectChanges(series('bounce:rate', [1, 1, 20]), DETECTION_RULES.bounce)).toEqual([]);
    // 50 messages: a 20% bounce day on so little mail is not judged.
    expect(detectChanges(series('bounce:rate', [1, 1, 1, [20, 50]]), DETECTION_RULES.bounce)).toEqual([]);
    // Doubled, but by less than 2 points.
    expect(detectChanges(series('bounce:rate', [0.5, 0.5, 0.5, 1.2]), DETECTION_RULES.bounce)).toEqual([]);
    // 3 points more, but not double (12% from 10%).
    expect(detectChanges(series('bounce:rate', [10, 10, 10, 13]), DETECTION_RULES.bounce)).toEqual([]);
    // From a baseline of 0, a rise of the absolute margin is enough.
    expect(detectChanges(series('bounce:rate', [0, 0, 0, 3]), DETECTION_RULES.bounce)).toHaveLength(1);
  });

  it('judges Gmail spam days without a message count', () => {
    expect(
      detectChanges(
        series('gmail:spam', [
          [0.05, null],
          [0.04, null],
          [0.06, null],
          [0.3, null],
        ]),
        DETECTION_RULES.gmail,
      ),
    ).toHaveLength(1);
  });

  it('picks each series family its rule', () => {
    expect(ruleOf('placement:gmail')).toBe(DETECTION_RULES.placement);
    expect(ruleOf('placement:all')).toBe(DETECTION_RULES['placement:all']);
    expect(ruleOf('complaint:rate')).toBe(DETECTION_RULES.complaint);
    expect(ruleOf('nothing:here')).toBeUndefined();
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });
});
