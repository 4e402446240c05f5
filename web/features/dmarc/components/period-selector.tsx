import { ANALYTICS_PERIODS } from '../../../../contracts/dmarc';
import { cn } from '../../../lib/utils';
import type { AnalyticsPeriod } from '../api';

/** 7, 30 or 90 days, as toggle buttons (the same control as the dashboard's trend period). */
export function PeriodSelector({ value, onChange }: { value: AnalyticsPeriod; onChange: (days: AnalyticsPeriod) => void }) {
  return (
    <div role="group" aria-label="DMARC report period" className="inline-flex shrink-0 rounded-md border p-0.5">
      {ANALYTICS_PERIODS.map((period) => (
        <button
          key={period}
          type="button"
          aria-pressed={value === period}
          onClick={() => onChange(period)}
          className={cn(
            'rounded px-3 py-1 text-sm font-medium focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring',
            value === period ? 'bg-primary text-primary-foreground' : 'text-muted-foreground hover:bg-accent',
          )}
        >
          {period} days
        </button>
      ))}
    </div>
  );
}
