const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

/** The avatar letter: first character of the username, upper-cased; '?' when there is none. */
export function userInitial(username: string | undefined | null): string {
  const first = username?.trim().charAt(0);
  return first ? first.toUpperCase() : '?';
}

/** Badge text for a count; very large counts would break the badge's shape. */
export function badgeCount(count: number): string {
  return count > 99 ? '99+' : String(count);
}

/** Relative age per part 1, section 9: under 1 hour 'Just now', under 24 hours in hours, else days. */
export function relativeAge(date: string | Date, now: Date = new Date()): string {
  const elapsed = now.getTime() - new Date(date).getTime();
  if (elapsed < HOUR_MS) return 'Just now';
  if (elapsed < DAY_MS) return `${Math.floor(elapsed / HOUR_MS)}h ago`;
  return `${Math.floor(elapsed / DAY_MS)}d ago`;
}
