import { Link } from 'react-router';
import { Eye } from 'lucide-react';
import type { Alert } from '@contracts/alerts';
import { Button } from '../../../components/ui/button';
import { PATHS } from '../../../lib/paths';
import { cn } from '../../../lib/utils';
import { AlertActions } from './alert-actions';
import { AlertStatusLine } from './alert-status-line';
import { SeverityBadge, SeverityIcon } from './severity-badge';
import { ViewTimelineLink } from './view-timeline-link';

/** One alert in a tab; a read one is dimmed (part 2, section 2: history at reduced opacity). */
export function AlertCard({ alert, onDelete }: { alert: Alert; onDelete: (alert: Alert) => void }) {
  return (
    <li
      data-testid="alert-card"
      data-alert-id={alert.id}
      data-read={alert.isRead}
      className={cn('flex gap-3 rounded-lg border bg-card p-4', alert.isRead && 'opacity-60')}
    >
      <SeverityIcon severity={alert.severity} className="mt-0.5" />
      <div className="min-w-0 flex-1 space-y-2">
        <div className="flex flex-wrap items-center gap-2">
          <h3 className="min-w-0 font-medium wrap-anywhere">{alert.title}</h3>
          <SeverityBadge severity={alert.severity} />
        </div>
        {/* A message may hold a whole DNS record: it wraps anywhere rather than widening the page. */}
        <p className="text-sm text-muted-foreground wrap-anywhere">{alert.message}</p>
        <AlertStatusLine alert={alert} />
        <div className="flex flex-wrap items-center gap-2">
          <Button asChild variant="link" size="sm" className="h-auto px-1 py-0">
            <Link to={`${PATHS.alerts}?alertId=${alert.id}`} aria-label={`View details of ${alert.title}`}>
              <Eye aria-hidden="true" />
              View details
            </Link>
          </Button>
          <ViewTimelineLink alert={alert} />
          <AlertActions alert={alert} onDelete={onDelete} />
        </div>
      </div>
    </li>
  );
}
