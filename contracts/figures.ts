// Every figure the product shows in more than one place, defined once and used by server and
// browser alike: the same label is the same number on every screen.

import { addDays, utcDay } from './utc-day';

/** `part` as a percentage of `whole`, rounded to `decimals` places when given; null when there is nothing to divide by. */
export function percentOf(part: number, whole: number, decimals?: number): number | null {
  if (!Number.isFinite(whole) || whole <= 0) return null;
  const value = (part / whole) * 100;
  if (decimals === undefined) return value;
  const scale = 10 ** decimals;
  return Math.round(value * scale) / scale;
}

/** "The last 30 days" of sending figures: today (UTC) and the 29 days before it. */
export const METRICS_WINDOW_DAYS = 30;

/** The first UTC date (YYYY-MM-DD) of the 30 days ending on `now`'s date. */
export function metricsWindowStart(now: Date = new Date()): string {
  return addDays(utcDay(now), -(METRICS_WINDOW_DAYS - 1));
}

export interface MailVolumes {
  sent: number;
  delivered: number;
  bounced: number;
  complaints: number;
}

/** The sending figures of one UTC day (YYYY-MM-DD): an account's (every source summed), a domain's or an IP's. */
export interface DayVolumes extends MailVolumes {
  date: string;
}

export interface SendingRates {
  /** delivered / sent, percent. */
  deliveryRate: number | null;
  /** bounced / sent, percent. */
  bounceRate: number | null;
  /** complaints / delivered, percent: a complaint needs a delivered message (Google Postmaster's spam rate). */
  complaintRate: number | null;
}

/** The sending rates of some volume of mail; null where there is nothing to divide by. */
export function sendingRates(volumes: MailVolumes): SendingRates {
  return {
    deliveryRate: percentOf(volumes.delivered, volumes.sent),
    bounceRate: percentOf(volumes.bounced, volumes.sent),
    complaintRate: percentOf(volumes.complaints, volumes.delivered),
  };
}
