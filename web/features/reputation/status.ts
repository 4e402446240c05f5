import type { IpStatus } from '@contracts/reputation';
import type { Tone } from '../../lib/format';

/** Part 2, section 4: the IP status badge; `pending` reads "Checking", anything unknown "Unknown". */
export function ipStatusLabel(status: IpStatus | string): string {
  switch (status) {
    case 'clean':
      return 'Clean';
    case 'caution':
      return 'Caution';
    case 'warning':
      return 'Warning';
    case 'blocked':
      return 'Blocked';
    case 'critical':
      return 'Critical';
    case 'pending':
      return 'Checking';
    default:
      return 'Unknown';
  }
}

export function ipStatusTone(status: IpStatus | string): Tone {
  switch (status) {
    case 'clean':
      return 'good';
    case 'caution':
    case 'warning':
      return 'warn';
    case 'blocked':
    case 'critical':
      return 'bad';
    default:
      return 'none';
  }
}

/** Part 2, section 9: sender score 90 or more green, 70 or more yellow, below red. */
export const SENDER_SCORE_THRESHOLDS = { good: 90, warn: 70 } as const;

export function senderScoreTone(score: number | null): Tone {
  if (score === null) return 'none';
  if (score >= SENDER_SCORE_THRESHOLDS.good) return 'good';
  if (score >= SENDER_SCORE_THRESHOLDS.warn) return 'warn';
  return 'bad';
}

/**
 * The word beside a domain's score. The original printed a fixed "Excellent" (part 2, section 2);
 * here it follows the score on the same thresholds as its colour.
 */
export function scoreLabel(score: number | null): string {
  if (score === null) return 'Not scored yet';
  if (score >= SENDER_SCORE_THRESHOLDS.good) return 'Excellent';
  if (score >= SENDER_SCORE_THRESHOLDS.warn) return 'Good';
  return 'Poor';
}
