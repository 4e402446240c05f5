import { Badge } from '../../../components/ui/badge';
import { cn } from '../../../lib/utils';
import { ANNUAL_BADGE, type BillingPeriod } from '../pricing-plans';

const OPTIONS: { id: BillingPeriod; label: string }[] = [
  { id: 'monthly', label: 'Monthly' },
  { id: 'annual', label: 'Annual' },
];

/** The Monthly/Annual toggle with its "Save 25%" badge (part 2, section 2). */
export function BillingPeriodToggle({
  value,
  onChange,
}: {
  value: BillingPeriod;
  onChange: (period: BillingPeriod) => void;
}) {
  return (
    <div className="flex flex-wrap items-center justify-center gap-3">
      <div role="group" aria-label="Billing period" className="inline-flex rounded-full border bg-muted p-1">
        {OPTIONS.map((option) => (
          <button
            key={option.id}
            type="button"
            aria-pressed={value === option.id}
            onClick={() => onChange(option.id)}
            className={cn(
              'rounded-full px-4 py-1.5 text-sm font-medium transition-colors focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring',
              value === option.id
                ? 'bg-background text-foreground shadow-sm'
                : 'text-muted-foreground hover:text-foreground',
            )}
          >
            {option.label}
          </button>
        ))}
      </div>
      <Badge className="bg-green-600 text-white" data-testid="annual-badge">
        {ANNUAL_BADGE}
      </Badge>
    </div>
  );
}
