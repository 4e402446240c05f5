import { describe, expect, it } from 'vitest';
import { hasDue, mergeItems } from './alert-delivery.service';
import { claimable, dueBoundary, inQuietHours, wallClock } from './schedule';

const at = (iso: string) => new Date(iso);

describe('delivery schedule', () => {
  it('reads the wall clock of a time zone', () => {
    // 2025-03-03 is a Monday; Paris is UTC+1 in March before the 30th, Kolkata UTC+5:30.
    expect(wallClock(at('2025-03-03T07:15:00Z'), 'Europe/Paris')).toMatchObject({ weekday: 0, hour: 8, minute: 15 });
    expect(wallClock(at('2025-03-02T23:30:00Z'), 'Europe/Paris')).toMatchObject({ weekday: 0, hour: 0, minute: 30 });
    expect(wallClock(at('2025-03-03T07:15:00Z'), 'Asia/Kolkata')).toMatchObject({ hour: 12, minute: 45 });
  });

  it('finds the latest boundary of each frequency: now, the top of the hour, 08:00, Monday 08:00', () => {
    const now = at('2025-03-05T10:20:30.500Z'); // a Wednesday
    expect(dueBoundary(now, { frequency: 'immediate', quietHours: null })).toEqual(now);
    expect(dueBoundary(now, { frequency: 'hourly', quietHours: null })).toEqual(at('2025-03-05T10:00:00Z'));
    expect(dueBoundary(now, { frequency: 'daily', quietHours: null })).toEqual(at('2025-03-05T08:00:00Z'));
    expect(dueBoundary(at('2025-03-05T07:59:00Z'), { frequency: 'daily', quietHours: null })).toEqual(
      at('2025-03-04T08:00:00Z'),
    );
    expect(dueBoundary(now, { frequency: 'weekly', quietHours: null })).toEqual(at('2025-03-03T08:00:00Z'));
    expect(dueBoundary(at('2025-03-03T07:00:00Z'), { frequency: 'weekly', quietHours: null })).toEqual(
      at('2025-02-24T08:00:00Z'),
    );
    // On the quiet hours' clock: 08:00 in Paris is 07:00 UTC; the top of the hour in Kolkata is at :30 UTC.
    const paris = { start: '22:00', end: '06:00', timeZone: 'Europe/Paris' };
    expect(dueBoundary(now, { frequency: 'daily', quietHours: paris })).toEqual(at('2025-03-05T07:00:00Z'));
    const kolkata = { start: '23:00', end: '05:00', timeZone: 'Asia/Kolkata' };
    expect(dueBoundary(now, { frequency: 'hourly', quietHours: kolkata })).toEqual(at('2025-03-05T09:30:00Z'));
  });

  it('tells quiet hours, across midnight or not', () => {
    const night = { start: '22:00', end: '07:00', timeZone: 'UTC' };
    expect(inQuietHours(at('2025-03-05T23:00:00Z'), night)).toBe(true);
    expect(inQuietHours(at('2025-03-05T06:59:00Z'), night)).toBe(true);
    expect(inQuietHours(at('2025-03-05T07:00:00Z'), night)).toBe(false);
    expect(inQuietHours(at('2025-03-05T21:59:00Z'), night)).toBe(false);
    const lunch = { start: '12:00', end: '13:30', timeZone: 'Europe/Paris' };
    expect(inQuietHours(at('2025-03-05T11:15:00Z'), lunch)).toBe(true);
    expect(inQuietHours(at('2025-03-05T12:30:00Z'), lunch)).toBe(false);
    expect(inQuietHours(at('2025-03-05T12:30:00Z'), { start: '10:00', end: '10:00', timeZone: 'UTC' })).toBe(false);
    expect(inQuietHours(at('2025-03-05T12:30:00Z'), null)).toBe(false);
  });

  it('lets only critical notifications through quiet hours, and digests only what happened by their boundary', () => {
    const pending = [
      { id: 1, severity: 'warning', occurredAt: at('2025-03-05T09:10:00Z') },
      { id: 2, severity: 'critical', occurredAt: at('2025-03-05T09:40:00Z') },
      { id: 3, severity: 'info', occurredAt: at('2025-03-05T10:05:00Z') },
    ];
    const now = at('2025-03-05T10:10:00Z');
    expect(claimable(pending, { frequency: 'immediate', quietHours: null }, now).map((n) => n.id)).toEqual([1, 2, 3]);
    expect(claimable(pending, { frequency: 'hourly', quietHours: null }, now).map((n) => n.id)).toEqual([1, 2]);
    const quiet = { start: '10:00', end: '11:00', timeZone: 'UTC' };
    expect(claimable(pending, { frequency: 'immediate', quietHours: quiet }, now).map((n) => n.id)).toEqual([2]);
    expect(
      claimable(pending, { frequency: 'immediate', quietHours: quiet }, at('2025-03-05T11:00:00Z')).map((n) => n.id),
    ).toEqual([1, 2, 3]);
    expect(claimable(pending, { frequency: 'daily', quietHours: null }, now)).toEqual([]);
    const resolved = {
      id: 4,
      severity: 'critical',
      event: 'resolved' as const,
      occurredAt: at('2025-03-05T10:01:00Z'),
    };
    expect(claimable([resolved], { frequency: 'immediate', quietHours: quiet }, now)).toEqual([]);

    // The sweep's summary of the same question.
    const summary = { oldest: at('2025-03-05T09:10:00Z'), oldestCritical: null };
    expect(hasDue(summary, { frequency: 'hourly', quietHours: null }, at('2025-03-05T09:59:00Z'))).toBe(false);
    expect(hasDue(summary, { frequency: 'hourly', quietHours: null }, at('2025-03-05T10:00:00Z'))).toBe(true);
    expect(hasDue(summary, { frequency: 'immediate', quietHours: quiet }, now)).toBe(false);
    expect(
      hasDue({ ...summary, oldestCritical: summary.oldest }, { frequency: 'immediate', quietHours: quiet }, now),
    ).toBe(true);
  });

  it('tells an alert raised and escalated before its message once, as raised in its latest words; a resolution keeps its line', () => {
    const base = { type: 'bounce', message: 'm', domain: null, at: '2025-03-05T10:00:00.000Z' };
    const merged = mergeItems([
      { ...base, notificationId: 1, alertId: 7, event: 'raised', severity: 'warning', title: 'Bounce 6%' },
      { ...base, notificationId: 2, alertId: 8, event: 'raised', severity: 'info', title: 'Other' },
      { ...base, notificationId: 3, alertId: 7, event: 'escalated', severity: 'critical', title: 'Bounce 12%' },
      { ...base, notificationId: 4, alertId: 7, event: 'resolved', severity: 'critical', title: 'Bounce 12%' },
    ]);
    expect(merged.map((i) => [i.alertId, i.event, i.severity, i.title])).toEqual([
      [7, 'raised', 'critical', 'Bounce 12%'],
      [8, 'raised', 'info', 'Other'],
      [7, 'resolved', 'critical', 'Bounce 12%'],
    ]);
  });
});
