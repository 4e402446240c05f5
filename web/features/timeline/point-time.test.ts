import { describe, expect, it } from 'vitest';
import { dayTicks } from './components/timeline-chart';
import { pointDay, pointTime } from './point-time';

describe('when a point was', () => {
  it('shows a daily figure (UTC midnight) as its UTC day, and a moment with its time', () => {
    expect(pointTime('2025-03-03T00:00:00.000Z')).toBe('Mar 3, 2025');
    expect(pointDay('2025-03-03T00:00:00Z')).toBe('Mar 3, 2025');
    // A moment is local time: whatever the machine's zone, it keeps its minutes and says its hour.
    expect(pointTime('2025-03-03T10:30:00.000Z')).toMatch(/^Mar [234], 2025, \d{1,2}:\d0 [AP]M$/);
  });
});

describe('the day ticks of the time axis', () => {
  const DAY = 86_400_000;
  const from = Date.parse('2025-02-04T12:00:00Z');

  it('spans the whole period at UTC midnights, about seven of them', () => {
    const ticks = dayTicks(from, from + 30 * DAY);
    expect(ticks[0]).toBe(Date.parse('2025-02-05T00:00:00Z'));
    expect(ticks.every((t) => t % DAY === 0 && t <= from + 30 * DAY)).toBe(true);
    expect(ticks.length).toBeGreaterThanOrEqual(6);
    expect(ticks.length).toBeLessThanOrEqual(9);
    expect(dayTicks(from, from + 7 * DAY)).toHaveLength(7);
  });
});
