import type { ReactNode } from 'react';
import { cn } from '../../lib/utils';

/** Good, needs attention, bad, or neutral: the colours every status pill uses. */
export type Tone = 'good' | 'warn' | 'bad' | 'none';

const TONE_CLASSES: Record<Tone, string> = {
  good: 'border-green-200 bg-green-100 text-green-800',
  warn: 'border-yellow-200 bg-yellow-100 text-yellow-800',
  bad: 'border-red-200 bg-red-100 text-red-800',
  none: 'border-border bg-muted text-muted-foreground',
};

/** A small coloured pill; `data-tone` lets tests check the colour without class names. */
export function Pill({
  tone,
  children,
  className,
  testId,
}: {
  tone: Tone;
  children: ReactNode;
  className?: string;
  testId?: string;
}) {
  return (
    <span
      data-tone={tone}
      data-testid={testId}
      className={cn(
        'inline-flex items-center whitespace-nowrap rounded-full border px-2.5 py-0.5 text-xs font-semibold',
        TONE_CLASSES[tone],
        className,
      )}
    >
      {children}
    </span>
  );
}
