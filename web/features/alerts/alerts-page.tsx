import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import type { Alert } from '@contracts/alerts';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { QueryState } from '../../components/query-state';
import { ContentSpinner } from '../../components/ui/spinner';
import { toast } from '../../components/ui/use-toast';
import { serverMessageOr } from '../../lib/api-client';
import { PATHS } from '../../lib/paths';
import { useAlertList, useAlertSettings, useDeleteAlertMutation } from './api';
import { AlertDetail } from './components/alert-detail';
import { AlertList } from './components/alert-list';
import { AlertRules } from './components/alert-rules';
import { AlertSettingsForm } from './components/alert-settings/alert-settings-form';
import { ALERT_TABS, AlertTabs, type AlertTab } from './components/alert-tabs';

/** `?alertId=` as a positive whole number; anything else is an alert that cannot exist. */
function alertIdOf(value: string): number | null {
  return /^[1-9]\d{0,9}$/.test(value) && Number(value) <= 2_147_483_647 ? Number(value) : null;
}

function SettingsTab() {
  const settings = useAlertSettings();
  return (
    <div className="space-y-4">
      <QueryState
        query={settings}
        loading={<ContentSpinner label="Loading your alert settings" />}
        errorMessage={(error) => serverMessageOr(error, 'Could not load your alert settings.')}
        errorVariant="card"
      >
        {(saved) => <AlertSettingsForm saved={saved} />}
      </QueryState>
      <AlertRules />
    </div>
  );
}

/** Alerts (part 2, section 2): Active (unread), History (read) and Settings, and the `?alertId=` detail view. */
export default function AlertsPage() {
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const alerts = useAlertList();
  const remove = useDeleteAlertMutation();
  const [deleting, setDeleting] = useState<Alert | null>(null);

  const alertIdParam = params.get('alertId');
  const tabParam = params.get('tab') as AlertTab | null;
  const tab: AlertTab = tabParam && ALERT_TABS.includes(tabParam) ? tabParam : 'active';
  const active = alerts.data?.filter((alert) => !alert.isRead) ?? [];
  const read = alerts.data?.filter((alert) => alert.isRead) ?? [];

  const confirmDelete = (alert: Alert) =>
    remove.mutate(alert.id, {
      onSuccess: () => {
        setDeleting(null);
        toast({ title: 'Alert deleted' });
        if (alertIdParam !== null) void navigate(PATHS.alerts);
      },
      onError: (failure) =>
        toast({
          title: 'Error',
          description: serverMessageOr(failure, 'Failed to delete alert. Please try again.'),
          variant: 'destructive',
        }),
    });

  return (
    <div data-testid="alerts-page" className="space-y-4">
      {alertIdParam !== null ? (
        <AlertDetail id={alertIdOf(alertIdParam)} onDelete={setDeleting} />
      ) : (
        <AlertTabs
          tab={tab}
          onTab={(next) => setParams(next === 'active' ? {} : { tab: next }, { replace: true })}
          activeCount={alerts.data ? active.length : null}
          historyCount={alerts.data ? read.length : null}
        >
          {tab === 'settings' ? (
            <SettingsTab />
          ) : (
            <QueryState
              query={alerts}
              loading={<ContentSpinner label="Loading your alerts" />}
              errorMessage="Could not load your alerts."
              errorVariant="card"
            >
              {() => <AlertList kind={tab} alerts={tab === 'active' ? active : read} onDelete={setDeleting} />}
            </QueryState>
          )}
        </AlertTabs>
      )}
      {deleting && (
        <ConfirmDialog
          open
          onOpenChange={(open) => !open && setDeleting(null)}
          title="Delete Alert"
          description={`Are you sure you want to delete the alert "${deleting.title}"? This cannot be undone.`}
          pending={remove.isPending}
          onConfirm={() => confirmDelete(deleting)}
          testId="delete-alert-dialog"
        />
      )}
    </div>
  );
}
