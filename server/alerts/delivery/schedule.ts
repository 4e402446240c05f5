import type { AlertFrequency, QuietHours } from '@contracts/alert-settings';

/*
 * When a user's pending alert notifications may go out: pure functions of the time given, so the
 * jobs and the tests pass `now` in. Digest times and quiet hours are read on the clock of the quiet
 * hours' time zone when set, else UTC.
 */

export interface DeliverySchedule {
  frequency: AlertFrequency;
  quietHours: QuietHours | null;
}

/** What the schedule needs of a pending notification. */
export interface PendingNotice {
  severity: string;
  /** A resolution is good news: it never passes quiet hours. */
  event?: 'raised' | 'escalated' | 'resolved';
  occurredAt: Date;
}

interface WallClock {
  /** 0 = Monday ... 6 = Sunday. */
  weekday: number;
  hour: number;
  minute: number;
  second: number;
  millisecond: number;
}

const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];
const formatters = new Map<string, Intl.DateTimeFormat>();

/** The wall clock in `timeZone` at `at`. */
export function wallClock(at: Date, timeZone: string): WallClock {
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      weekday: 'short',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, format);
  }
  const parts = Object.fromEntries(format.formatToParts(at).map((p) => [p.type, p.value]));
  return {
    weekday: WEEKDAYS.indexOf(parts.weekday ?? 'Mon'),
    hour: Number(parts.hour) % 24,
    minute: Number(parts.minute),
    second: Number(parts.second),
    millisecond: at.getUTCMilliseconds(),
  };
}

/** The time zone digests are timed in: the quiet hours' one, else UTC. */
export function scheduleTimeZone(schedule: DeliverySchedule): string {
  return schedule.quietHours?.timeZone ?? 'UTC';
}

/** The hour digests and the weekly summary go out at, on the user's clock. */
export const DIGEST_HOUR = 8;

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * The latest time at or before `now` a message of this frequency is due: `now` itself for immediate,
 * the top of the hour, 08:00, or Monday 08:00. A notification that happened by then goes in the
 * message; one that happened after waits for the next. (Wall-clock arithmetic: on a day whose clock
 * changes between the boundary and now, the boundary is an hour off, once.)
 */
export function dueBoundary(now: Date, schedule: DeliverySchedule): Date {
  if (schedule.frequency === 'immediate') return now;
  const clock = wallClock(now, scheduleTimeZone(schedule));
  const intoHour = clock.minute * MINUTE + clock.second * 1000 + clock.millisecond;
  if (schedule.frequency === 'hourly') return new Date(now.getTime() - intoHour);
  const sinceDigestHour = (clock.hour - DIGEST_HOUR) * HOUR + intoHour;
  if (schedule.frequency === 'daily')
    return new Date(now.getTime() - (sinceDigestHour >= 0 ? sinceDigestHour : sinceDigestHour + DAY));
  const sinceMonday = clock.weekday * DAY + sinceDigestHour;
  return new Date(now.getTime() - (sinceMonday >= 0 ? sinceMonday : sinceMonday + 7 * DAY));
}

/** Whether `now` falls in the quiet hours (which may cross midnight; start = end means none). */
export function inQuietHours(now: Date, quietHours: QuietHours | null): boolean {
  if (!quietHours) return false;
  const clock = wallClock(now, quietHours.timeZone);
  const minute = clock.hour * 60 + clock.minute;
  const start = minutesOf(quietHours.start);
  const end = minutesOf(quietHours.end);
  if (start === end) return false;
  return start < end ? minute >= start && minute < end : minute >= start || minute < end;
}

function minutesOf(clock: string): number {
  const [h, m] = clock.split(':').map(Number);
  return h * 60 + m;
}

/**
 * The pending notifications a message may carry now: those that happened by the frequency's
 * boundary and, in quiet hours, only critical ones raised or escalated (the rest, resolutions too, go
 * together when the quiet hours end).
 */
export function claimable<T extends PendingNotice>(pending: T[], schedule: DeliverySchedule, now: Date): T[] {
  const boundary = dueBoundary(now, schedule).getTime();
  const quiet = inQuietHours(now, schedule.quietHours);
  return pending.filter((n) => n.occurredAt.getTime() <= boundary && (!quiet || passesQuietHours(n)));
}

export function passesQuietHours(n: PendingNotice): boolean {
  return n.severity === 'critical' && n.event !== 'resolved';
}
