// Days as the product counts them: UTC calendar days written YYYY-MM-DD, the form PostgreSQL's `date`,
// the providers' daily statistics and the API's date filters use. Pure functions, for server and browser:
// a day computed in one place and the same day computed in another must never differ at midnight.

/** 24 hours in milliseconds: for spans of time ("7 days ago"), not for calendar days (use addDays). */
export const DAY_MS = 86_400_000;

/** The UTC day (YYYY-MM-DD) an instant falls on; today's without one. */
export function utcDay(at: Date | number = new Date()): string {
  return new Date(at).toISOString().slice(0, 10);
}

/** The instant a UTC day begins (its midnight, UTC). */
export function dayStart(day: string): Date {
  return new Date(`${day}T00:00:00Z`);
}

/** The UTC day `days` calendar days after `day` (before it when negative); month and year ends and leap days included. */
export function addDays(day: string, days: number): string {
  const d = dayStart(day);
  d.setUTCDate(d.getUTCDate() + days);
  return utcDay(d);
}

/** The instant `days` times 24 hours before `now`. */
export function daysAgo(days: number, now: Date | number = Date.now()): Date {
  return new Date(new Date(now).getTime() - days * DAY_MS);
}

/** The first instant of the UTC month after `now`'s: when a monthly count starts again. */
export function nextMonthStart(now: Date = new Date()): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
}

/** The longest range listDays returns: a provider's statistics are read at most about a year at a time. */
const MAX_LISTED_DAYS = 400;

/** Every UTC day from `from` to `to`, both inclusive (none when `from` is after `to`; at most 400). */
export function listDays(from: string, to: string): string[] {
  const days: string[] = [];
  for (let day = from; day <= to && days.length < MAX_LISTED_DAYS; day = addDays(day, 1)) days.push(day);
  return days;
}

/** 2024-02-29 is a day; 2023-02-29 and 2024-13-01 are not (Date.parse rolls them over instead of refusing them). */
export function isCalendarDay(day: string): boolean {
  const time = dayStart(day).getTime();
  return !Number.isNaN(time) && utcDay(time) === day;
}
