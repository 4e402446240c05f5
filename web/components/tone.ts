import type { Tone } from '../lib/format';

/** Text colour of a figure by how it reads against its thresholds (web/lib/format.ts). */
export const TONE_TEXT: Record<Tone, string> = {
  good: 'text-green-700',
  warn: 'text-yellow-700',
  bad: 'text-red-700',
  none: 'text-muted-foreground',
};
