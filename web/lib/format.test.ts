import { describe, expect, it } from 'vitest';
import {
  badgeCount,
  formatCount,
  formatNumber,
  formatPercent,
  formatRate,
  formatScore,
  inboxRateTone,
  parsePercent,
  relativeAge,
  roundTo,
  spamRateTone,
  syncFreshness,
  userInitial,
} from './format';

const NOW = new Date('2025-06-10T12:00:00Z');
const MINUTE = 60 * 1000;
const HOUR = 60 * MINUTE;
const ago = (ms: number) => new Date(NOW.getTime() - ms).toISOString();

describe('format', () => {
  it('relativeAge: under an hour "Just now", then hours, then days', () => {
    expect(relativeAge('2025-06-10T11:30:00Z', NOW)).toBe('Just now');
    expect(relativeAge('2025-06-10T07:00:00Z', NOW)).toBe('5h ago');
    expect(relativeAge('2025-06-07T12:00:00Z', NOW)).toBe('3d ago');
  });

  it('relativeAge boundaries: 59 min, 1 h, 23 h, 24 h, 7 d, 168 h', () => {
    expect(relativeAge(ago(59 * MINUTE), NOW)).toBe('Just now');
    expect(relativeAge(ago(60 * MINUTE - 1), NOW)).toBe('Just now');
    expect(relativeAge(ago(HOUR), NOW)).toBe('1h ago');
    expect(relativeAge(ago(23 * HOUR), NOW)).toBe('23h ago');
    expect(relativeAge(ago(24 * HOUR - 1), NOW)).toBe('23h ago');
    expect(relativeAge(ago(24 * HOUR), NOW)).toBe('1d ago');
    expect(relativeAge(ago(7 * 24 * HOUR), NOW)).toBe('7d ago');
    expect(relativeAge(ago(168 * HOUR), NOW)).toBe('7d ago');
    // A clock a little ahead of ours never gives a negative age.
    expect(relativeAge(ago(-5 * MINUTE), NOW)).toBe('Just now');
  });

  it('syncFreshness: never, just, hours, days, outdated at 168 h', () => {
    expect(syncFreshness(null, NOW)).toBe('Never synced');
    expect(syncFreshness(undefined, NOW)).toBe('Never synced');
    expect(syncFreshness(ago(59 * MINUTE), NOW)).toBe('Just synced');
    expect(syncFreshness(ago(HOUR), NOW)).toBe('1h ago');
    expect(syncFreshness(ago(23 * HOUR), NOW)).toBe('23h ago');
    expect(syncFreshness(ago(24 * HOUR), NOW)).toBe('1d ago');
    expect(syncFreshness(ago(167 * HOUR), NOW)).toBe('6d ago');
    expect(syncFreshness(ago(168 * HOUR - 1), NOW)).toBe('6d ago');
    expect(syncFreshness(ago(7 * 24 * HOUR), NOW)).toBe('Sync outdated');
    expect(syncFreshness(ago(168 * HOUR), NOW)).toBe('Sync outdated');
    expect(syncFreshness(ago(30 * 24 * HOUR), NOW)).toBe('Sync outdated');
  });

  it('percent rounding', () => {
    expect(roundTo(1.005, 2)).toBe(1.01);
    expect(roundTo(89.95, 1)).toBe(90);
    expect(roundTo(-2.5)).toBe(-3);
    expect(formatPercent(92.449)).toBe('92.4%');
    expect(formatPercent(92.45)).toBe('92.5%');
    expect(formatPercent(0.1234, 3)).toBe('0.123%');
    expect(formatPercent(100, 0)).toBe('100%');
    expect(parsePercent('97.50')).toBe(97.5);
    expect(parsePercent(null)).toBeNull();
    expect(parsePercent('n/a')).toBeNull();
    expect(formatCount(1234567)).toBe('1,234,567');
  });

  it('one style for scores and rates: at most one decimal unless asked, no trailing zeros', () => {
    expect(formatScore(33.333)).toBe('33.3');
    expect(formatScore(100)).toBe('100');
    expect(formatScore(89.94)).toBe('89.9');
    expect(formatScore(89.95)).toBe('90');
    expect(formatRate(100)).toBe('100%');
    expect(formatRate(91.5)).toBe('91.5%');
    expect(formatRate(76.666)).toBe('76.7%');
    expect(formatRate(0)).toBe('0%');
    expect(formatRate(0.25, 2)).toBe('0.25%');
    expect(formatRate(0.1, 2)).toBe('0.1%');
    expect(formatRate(93.2667, 3)).toBe('93.267%');
    expect(formatNumber(-0.01)).toBe('0');
  });

  it('colours placement rates by value: inbox 90+ good, 70+ warn; spam up to 5 good, up to 15 warn', () => {
    expect([100, 90, 89.9, 70, 69.9, 0].map(inboxRateTone)).toEqual(['good', 'good', 'warn', 'warn', 'bad', 'bad']);
    expect([0, 5, 5.1, 15, 15.1, 100].map(spamRateTone)).toEqual(['good', 'good', 'warn', 'warn', 'bad', 'bad']);
    expect(inboxRateTone(null)).toBe('none');
    expect(spamRateTone(null)).toBe('none');
  });

  it('userInitial and badgeCount', () => {
    expect(userInitial('ada')).toBe('A');
    expect(userInitial('')).toBe('?');
    expect(badgeCount(7)).toBe('7');
    expect(badgeCount(150)).toBe('99+');
  });
});
