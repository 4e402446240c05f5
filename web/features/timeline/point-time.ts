import { formatDate, formatDateTime } from '../../lib/format';

/**
 * When a point or event was, as people read it. Daily figures (bounce rate, DMARC pass rate) sit at
 * their UTC day's midnight and stand for the whole day: shown as that UTC day, never as the evening
 * before in a browser west of Greenwich. Anything else is a moment, in local time.
 */
export function pointTime(at: string): string {
  return /T00:00:00(\.000)?Z$/.test(at) ? formatDate(at, { utc: true }) : formatDateTime(at);
}

/** The day of a point or event, on the same rule as pointTime. */
export function pointDay(at: string): string {
  return formatDate(at, { utc: /T00:00:00(\.000)?Z$/.test(at) });
}
