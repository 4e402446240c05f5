import { describe, expect, it } from 'vitest';
import { addDays, dayStart, daysAgo, isCalendarDay, listDays, nextMonthStart, utcDay } from './utc-day';

describe('UTC days shared by server and browser', () => {
  it.each([
    ['2026-11-23T23:59:59.999Z', '2026-11-23'],
    ['2026-11-24T00:00:00.000Z', '2026-11-24'],
    // Late evening west of Greenwich is already tomorrow in UTC.
    ['2026-11-23T19:30:00-05:00', '2026-11-24'],
    ['2026-11-24T01:00:00+02:00', '2026-11-23'],
    ['2024-02-29T12:00:00Z', '2024-02-29'],
    ['2025-12-31T23:59:59Z', '2025-12-31'],
  ])('%s falls on %s', (at, day) => {
    expect(utcDay(new Date(at))).toBe(day);
    expect(utcDay(Date.parse(at))).toBe(day);
  });

  it('is today (UTC) without an instant', () => {
    const before = utcDay(new Date());
    const today = utcDay();
    // Read around the call, so a run across midnight still knows both possible answers.
    expect([before, utcDay(new Date())]).toContain(today);
  });

  it('begins at midnight UTC', () => {
    expect(dayStart('2024-02-29').toISOString()).toBe('2024-02-29T00:00:00.000Z');
    expect(Number.isNaN(dayStart('not a day').getTime())).toBe(true);
  });

  it.each([
    ['2026-11-23', 1, '2026-11-24'],
    ['2026-11-30', 1, '2026-12-01'],
    ['2025-12-31', 1, '2026-01-01'],
    ['2026-01-01', -1, '2025-12-31'],
    ['2024-02-28', 1, '2024-02-29'],
    ['2024-02-29', 1, '2024-03-01'],
    ['2023-02-28', 1, '2023-03-01'],
    ['2024-03-01', -1, '2024-02-29'],
    ['2026-03-01', -29, '2026-01-31'],
    ['2024-02-29', 365, '2025-02-28'],
    ['2026-11-23', 0, '2026-11-23'],
  ])('%s plus %i days is %s', (day, days, expected) => {
    expect(addDays(day, days)).toBe(expected);
  });

  it('counts spans of time in whole 24 hours', () => {
    expect(daysAgo(7, new Date('2026-03-08T12:00:00Z')).toISOString()).toBe('2026-03-01T12:00:00.000Z');
    expect(daysAgo(1, Date.parse('2024-03-01T00:00:00Z')).toISOString()).toBe('2024-02-29T00:00:00.000Z');
  });

  it.each([
    ['2026-11-23T10:00:00Z', '2026-12-01T00:00:00.000Z'],
    ['2026-12-31T23:59:59Z', '2027-01-01T00:00:00.000Z'],
    ['2024-01-31T00:00:00Z', '2024-02-01T00:00:00.000Z'],
    ['2024-02-29T23:00:00Z', '2024-03-01T00:00:00.000Z'],
  ])('the month after %s starts at %s', (now, start) => {
    expect(nextMonthStart(new Date(now)).toISOString()).toBe(start);
  });

  it('lists every day of a range, both ends included, across a month, a year end and a leap day', () => {
    expect(listDays('2024-02-27', '2024-03-02')).toEqual([
      '2024-02-27',
      '2024-02-28',
      '2024-02-29',
      '2024-03-01',
      '2024-03-02',
    ]);
    expect(listDays('2025-12-30', '2026-01-01')).toEqual(['2025-12-30', '2025-12-31', '2026-01-01']);
    expect(listDays('2026-11-23', '2026-11-23')).toEqual(['2026-11-23']);
    expect(listDays('2026-11-24', '2026-11-23')).toEqual([]);
    expect(listDays('2020-01-01', '2026-01-01')).toHaveLength(400);
  });

  it.each([
    ['2024-02-29', true],
    ['2023-02-29', false],
    ['2024-13-01', false],
    ['2024-04-31', false],
    ['2024-12-31', true],
    ['20240101', false],
  ])('%s is a calendar day: %s', (day, expected) => {
    expect(isCalendarDay(day)).toBe(expected);
  });
});
