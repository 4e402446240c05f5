import { cn } from '../lib/utils';

/**
 * A number of days to look back over (7, 30 or 90), as toggle buttons: the DMARC report period and
 * the dashboard's trend period are the same control. `label` names the group for assistive technology.
 */
export function PeriodSelector<Days extends number>({
  periods,
  value,
  onChange,
  label,
}: {
  periods: readonly Days[];
  value: Days;
  onChange: (days: Days) => void;
  label: string;
}) {
  return (
    <div role="group" aria-label={label} className="inline-flex shrink-0 rounded-md border p-0.5">
      {periods.map((period) => (
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
