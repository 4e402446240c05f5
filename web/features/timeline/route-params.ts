import { ID_MAX } from '@contracts/input';
import { TIMELINE_PERIODS, type TimelinePeriod } from './api';

/** What a timeline page shows without ?days=. */
export const DEFAULT_PERIOD: TimelinePeriod = 30;

/** ?days= as one of the page's periods; anything else is the default. */
export function periodOf(value: string | null): TimelinePeriod {
  const days = Number(value);
  return (TIMELINE_PERIODS as readonly number[]).includes(days) ? (days as TimelinePeriod) : DEFAULT_PERIOD;
}

/** The :id of the path as a row id, or null when it cannot be one (the page then says not found, unasked). */
export function idOf(value: string | undefined): number | null {
  if (!value || !/^\d{1,10}$/.test(value)) return null;
  const id = Number(value);
  return id >= 1 && id <= ID_MAX ? id : null;
}
