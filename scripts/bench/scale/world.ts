import { addDays, dayStart, utcDay } from '@contracts/utc-day';

/*
 * The customer the bench fills: one account (an agency or a large sender) with N domains of three sizes, as a
 * real portfolio has them: a few brands that send every day, more that send most days, and many small or
 * seasonal domains whose mail (and so whose reports) comes a few days a week.
 */

export type Tier = 'big' | 'medium' | 'small';

export interface BenchDomain {
  index: number;
  id: number;
  name: string;
  tier: Tier;
  /** The IPs of the ESP the domain sends through (monitored on the reputation page). */
  espIps: string[];
}

export const DAYS = 365;

/** 1 in 20 big, 3 in 20 medium, the rest small (the long tail of a portfolio: parked, regional, seasonal). */
export function tierOf(index: number): Tier {
  const slot = index % 20;
  return slot === 0 ? 'big' : slot < 4 ? 'medium' : 'small';
}

const WORDS = ['acme', 'globex', 'initech', 'umbrella', 'stark', 'wayne', 'hooli', 'vandelay', 'wonka', 'tyrell'];

export const domainName = (index: number) =>
  `${WORDS[index % WORDS.length]}-${String(Math.floor(index / WORDS.length)).padStart(4, '0')}.example`;

/**
 * The dedicated sending IPs: a pool of four per ten domains (an ESP's dedicated pool per client group), from the
 * benchmarking range 198.18.0.0/15 (RFC 2544; 198.19.255.0/24 is the ESP's shared pool), so no real sender is named.
 */
export function espIpsOf(index: number): string[] {
  const pool = Math.floor(index / 10);
  return [10, 11, 12, 13].map((n) => `198.${18 + (pool >> 8)}.${pool & 255}.${n}`);
}

/** The UTC midnight `daysAgo` days before today's. */
export const dayAgo = (daysAgo: number, now = new Date()) => dayStart(addDays(utcDay(now), -daysAgo));
