import type { ReactNode } from 'react';
import { Pill, type Tone } from '../../../components/ui/pill';

// Small building blocks shared by the sections of the message analysis.

/** A titled block of the analysis. */
export function AnalysisSection({ title, children, testId }: { title: string; children: ReactNode; testId?: string }) {
  return (
    <section className="min-w-0 space-y-2 rounded-md border p-3" data-testid={testId}>
      <h5 className="text-sm font-semibold">{title}</h5>
      {children}
    </section>
  );
}

/** Label and value pairs; values wrap anywhere so long records never widen the page. */
export function Facts({ items }: { items: Array<[string, ReactNode]> }) {
  return (
    <dl className="grid grid-cols-1 gap-x-3 gap-y-1 text-sm sm:grid-cols-[10rem_minmax(0,1fr)]">
      {items.map(([label, value]) => (
        <div key={label} className="contents">
          <dt className="text-xs font-medium text-muted-foreground sm:pt-0.5">{label}</dt>
          <dd className="min-w-0 break-words [overflow-wrap:anywhere]">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** A DNS record or header value, shown as it is. */
export function Code({ children }: { children: ReactNode }) {
  return <code className="rounded bg-muted px-1 py-0.5 font-mono text-xs [overflow-wrap:anywhere]">{children}</code>;
}

/** The tone of an authentication result word (pass, fail, softfail, none...). */
export function resultTone(result: string): Tone {
  const value = result.toLowerCase();
  if (value === 'pass') return 'good';
  if (value === 'fail' || value === 'permerror' || value === 'policy') return 'bad';
  if (value === 'softfail' || value === 'temperror') return 'warn';
  return 'none';
}

export function ResultPill({ result }: { result: string }) {
  return <Pill tone={resultTone(result)}>{result}</Pill>;
}

export function yesNo(value: boolean): string {
  return value ? 'Yes' : 'No';
}

/** Scores and deductions as given, to at most two decimals, without trailing zeros. */
export function formatPoints(value: number): string {
  return String(Math.round(value * 100) / 100);
}
