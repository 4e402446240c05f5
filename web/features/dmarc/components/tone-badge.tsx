import type { ReactNode } from 'react';
import { cn } from '../../../lib/utils';
import { TONE_PILL, type Tone } from '../dmarc-text';

/** A small coloured pill; `data-tone` lets tests check the colour without class names. */
export function ToneBadge({ tone, children, className }: { tone: Tone; children: ReactNode; className?: string }) {
  return (
    <span data-tone={tone} className={cn('inline-flex items-center whitespace-nowrap rounded-full border px-2 py-0.5 text-xs font-semibold', TONE_PILL[tone], className)}>
      {children}
    </span>
  );
}
