import type { TimelineEvent } from '@contracts/timeline';

/*
 * A timeline event with what the diagnosis needs to know about it: the facts its score, evidence
 * sentence and fix are made from. The answer carries only the TimelineEvent part.
 */

export type Evidence =
  | {
      type: 'listing';
      listId: string;
      listName: string;
      zone: string;
      /** The catalogue's tier: 1 the large mailbox providers use it, 2 widely used, 3 minor. */
      tier: 1 | 2 | 3;
      /** The IP address or domain that was listed. */
      target: string;
      removalUrl: string;
      reason: string | null;
    }
  | { type: 'dns'; record: 'spf' | 'dkim' | 'dmarc' | 'mx'; summary: string; domain: string }
  | { type: 'dmarc_new_source'; ip: string; failed: number; total: number; domain: string }
  | { type: 'note'; text: string }
  /** Shown on the timeline, explains no drop: delistings, placement tests, integration errors, drops. */
  | { type: 'none' };

export interface EvidenceEvent {
  event: TimelineEvent;
  evidence: Evidence;
}

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** "3 March" (UTC), with the year when it is not the year of `now`. */
export function dayWords(at: Date | string, now: Date): string {
  const d = new Date(at);
  const year = d.getUTCFullYear() === now.getUTCFullYear() ? '' : ` ${d.getUTCFullYear()}`;
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]}${year}`;
}

/** "3 March 14:05 UTC". */
export function momentWords(at: Date | string, now: Date): string {
  const d = new Date(at);
  return `${dayWords(d, now)} ${d.toISOString().slice(11, 16)} UTC`;
}

/** A percentage as people write it: 92%, 1.5%, 0.08%. */
export function percentWords(value: number): string {
  const digits = Math.abs(value) >= 10 ? 0 : Math.abs(value) >= 1 ? 1 : 2;
  return `${Number(value.toFixed(digits))}%`;
}

export const count = (n: number) => Math.round(n).toLocaleString('en-US');
