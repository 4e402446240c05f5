import type { AlertSeverity } from '@contracts/alerts';
import { cn } from '../../../lib/utils';
import { SEVERITY_LOOK } from '../severity';

export function SeverityIcon({ severity, className }: { severity: AlertSeverity; className?: string }) {
  const { icon: Icon, iconClass } = SEVERITY_LOOK[severity];
  return (
    <Icon className={cn('size-5 shrink-0', iconClass, className)} aria-hidden="true" data-severity-icon={severity} />
  );
}

export function SeverityBadge({ severity }: { severity: AlertSeverity }) {
  return (
    <span
      data-testid="severity-badge"
      data-severity={severity}
      className={cn(
        'inline-flex items-center rounded-full border px-2.5 py-0.5 text-xs font-semibold capitalize',
        SEVERITY_LOOK[severity].badgeClass,
      )}
    >
      {severity}
    </span>
  );
}
