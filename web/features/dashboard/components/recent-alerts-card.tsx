import { useState } from 'react';
import { Bell, CheckCircle2, Info, TriangleAlert, XCircle } from 'lucide-react';
import { Link } from 'react-router';
import type { Alert, AlertSeverity } from '@contracts/alerts';
import type { Domain } from '@contracts/domains';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { DeleteIconButton } from '../../../components/delete-icon-button';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card';
import { toast } from '../../../components/ui/use-toast';
import { relativeAge } from '../../../lib/format';
import { cn } from '../../../lib/utils';
import { PATHS } from '../../../lib/paths';
import { useDeleteAlertMutation } from '../api';
import { latest, quietVerdict, type Tone } from '../metrics';
import { TONE_TEXT, ToneBadge } from './parts';

// ADR 004: critical and error share the dashboard's error icon.
const SEVERITY: Record<AlertSeverity, { icon: typeof Info; tone: Tone; iconClass: string }> = {
  critical: { icon: XCircle, tone: 'bad', iconClass: TONE_TEXT.bad },
  error: { icon: XCircle, tone: 'bad', iconClass: TONE_TEXT.bad },
  warning: { icon: TriangleAlert, tone: 'warn', iconClass: TONE_TEXT.warn },
  info: { icon: Info, tone: 'none', iconClass: 'text-blue-600' },
};

function AlertRow({ alert, onDelete }: { alert: Alert; onDelete: () => void }) {
  const severity = SEVERITY[alert.severity];
  const Icon = severity.icon;
  return (
    <li className="flex gap-3 rounded-lg border p-3" data-testid={`recent-alert-${alert.id}`}>
      <Icon
        className={cn('mt-0.5 size-5 shrink-0', severity.iconClass)}
        aria-hidden="true"
        data-severity-icon={alert.severity}
      />
      {/* Alerts are read whole, so they wrap; one raised before alerts were worded may hold a whole DKIM key. */}
      <div className="min-w-0 flex-1 space-y-1">
        <div className="flex flex-wrap items-center gap-2">
          <p className="min-w-0 font-medium wrap-anywhere">{alert.title}</p>
          <ToneBadge tone={severity.tone} className="capitalize">
            {alert.severity}
          </ToneBadge>
        </div>
        <p className="text-sm text-muted-foreground wrap-anywhere">{alert.message}</p>
        <div className="flex flex-wrap items-center gap-2 pt-1">
          <span className="text-xs text-muted-foreground">{relativeAge(alert.createdAt)}</span>
          {/* Only once the Alerts screen is built (content/screens.ts): no link to a dead end. */}
          <Button asChild variant="link" size="sm" className="h-auto px-1 py-0">
            <Link to={`${PATHS.alerts}?alertId=${alert.id}`} aria-label={`View Details of ${alert.title}`}>
              View Details
            </Link>
          </Button>
        </div>
      </div>
      <DeleteIconButton aria-label={`Delete alert ${alert.title}`} onClick={onDelete} />
    </li>
  );
}

/** What the card says without alerts: healthy only when it is (metrics.ts quietVerdict). */
function NoAlerts({ domains, healthScore }: { domains: Domain[]; healthScore: number | null }) {
  const verdict = quietVerdict(domains, healthScore);
  return (
    <div
      className="flex flex-col items-center gap-2 py-8 text-center"
      data-testid="no-alerts"
      data-healthy={verdict.healthy}
    >
      {verdict.healthy ? (
        <CheckCircle2 className="size-10 text-green-600" aria-hidden="true" />
      ) : (
        <TriangleAlert className="size-10 text-yellow-600" aria-hidden="true" />
      )}
      <p className="font-medium">No recent alerts</p>
      <p className="max-w-md text-sm text-muted-foreground wrap-anywhere">{verdict.text}</p>
      {verdict.action && (
        <Button asChild variant="outline" size="sm">
          <Link to={PATHS[verdict.action.to]}>{verdict.action.label}</Link>
        </Button>
      )}
    </div>
  );
}

/**
 * The 5 latest alerts (part 1, 2.8). The original's per-source filters end up showing every alert
 * for every dashboard source, so no filter is applied. Deleting asks first, as everywhere else.
 */
export function RecentAlertsCard({
  alerts,
  domains,
  healthScore,
}: {
  alerts: Alert[];
  domains: Domain[];
  healthScore: number | null;
}) {
  const deleteAlert = useDeleteAlertMutation();
  const [confirming, setConfirming] = useState<Alert | null>(null);
  const remove = (alert: Alert) =>
    deleteAlert.mutate(alert.id, {
      onSuccess: () => {
        setConfirming(null);
        toast({ title: 'Alert deleted' });
      },
      onError: () =>
        toast({ title: 'Error', description: 'Failed to delete alert. Please try again.', variant: 'destructive' }),
    });
  const shown = latest(alerts);
  return (
    <Card data-testid="dashboard-recent-alerts">
      <CardHeader className="flex flex-row items-center justify-between space-y-0">
        <CardTitle className="flex items-center gap-2 text-lg">
          <Bell className="size-5 text-primary" aria-hidden="true" />
          Recent Alerts
        </CardTitle>
        {alerts.length > 0 && (
          <Button asChild variant="outline" size="sm">
            <Link to={PATHS.alerts}>View All</Link>
          </Button>
        )}
      </CardHeader>
      <CardContent>
        {shown.length === 0 ? (
          <NoAlerts domains={domains} healthScore={healthScore} />
        ) : (
          <ul className="space-y-3">
            {shown.map((alert) => (
              <AlertRow key={alert.id} alert={alert} onDelete={() => setConfirming(alert)} />
            ))}
          </ul>
        )}
      </CardContent>
      {confirming && (
        <ConfirmDialog
          open
          onOpenChange={(open) => !open && setConfirming(null)}
          title="Delete Alert"
          description={`Are you sure you want to delete the alert "${confirming.title}"? This cannot be undone.`}
          pending={deleteAlert.isPending}
          onConfirm={() => remove(confirming)}
          testId="delete-alert-dialog"
        />
      )}
    </Card>
  );
}
