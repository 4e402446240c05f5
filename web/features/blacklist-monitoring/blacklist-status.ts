import type { Tone } from '../../lib/format';

/** Part 2, section 4: on this page the badge follows the count of lists: 0 Clean, 1-2 Warning, 3 or more Critical. */
export function blacklistLabel(blacklistCount: number): 'Clean' | 'Warning' | 'Critical' {
  if (blacklistCount === 0) return 'Clean';
  if (blacklistCount < 3) return 'Warning';
  return 'Critical';
}

export function blacklistTone(blacklistCount: number): Tone {
  if (blacklistCount === 0) return 'good';
  if (blacklistCount < 3) return 'warn';
  return 'bad';
}
