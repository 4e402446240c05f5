import { useId, useState, type ReactNode } from 'react';
import { useWatch } from 'react-hook-form';
import { Pause, Play, RefreshCw, Settings2, Trash2 } from 'lucide-react';
import type { Integration as Plugin } from '@content/integrations';
import type { Integration } from '@contracts/integrations';
import { Pill } from '../../../components/ui/pill';
import { Form } from '../../../components/form';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { Button } from '../../../components/ui/button';
import { toast } from '../../../components/ui/use-toast';
import { serverMessageOr } from '../../../lib/api-client';
import { formatCount, formatDateTime, formatRate, syncFreshness } from '../../../lib/format';
import { useSyncNowMutation, useUninstallMutation, useUpdateMutation } from '../api';
import { statusOf } from '../plugins';
import {
  configDefaults,
  configSchema,
  refusalIn,
  secretsTyped,
  useConfigFormContext,
  useConnectionTest,
  type ConfigValues,
} from '../config-form';
import { ConfigFields } from './config-fields';
import { ConnectionResult } from './connection-result';

function Row({ term, children, testId }: { term: string; children: ReactNode; testId?: string }) {
  return (
    <>
      <dt className="text-muted-foreground">{term}</dt>
      <dd className="min-w-0 wrap-anywhere" data-testid={testId}>
        {children}
      </dd>
    </>
  );
}

/**
 * An installed plugin (part 2, section 2, and what a GlockApps or MXToolbox user expects): its
 * status, last sync, next try and last error in the provider's words, what it synced over 30 days,
 * and Sync now, Pause or Resume, Edit settings and Uninstall.
 */
export function ManageIntegration({
  plugin,
  integration,
  onUninstalled,
}: {
  plugin: Plugin;
  integration: Integration;
  onUninstalled: () => void;
}) {
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const sync = useSyncNowMutation();
  const update = useUpdateMutation();
  const status = statusOf(integration);
  const paused = integration.status === 'inactive';
  const settings = plugin.fields.filter((field) => !field.secret && integration.config[field.key]);

  function syncNow() {
    sync.mutate(integration.id, {
      onSuccess: (answer) => toast({ title: 'Sync queued', description: answer.message }),
      onError: (error) =>
        toast({
          title: 'Sync not started',
          description: serverMessageOr(error, 'The sync could not be queued. Try again.'),
          variant: 'destructive',
        }),
    });
  }

  function setPaused(pause: boolean) {
    update.mutate(
      { id: integration.id, body: { enabled: !pause } },
      {
        onSuccess: () =>
          toast({
            title: pause ? `${plugin.name} paused` : `${plugin.name} resumed`,
            description: pause
              ? 'No sync runs until you resume it; its figures stay.'
              : 'A sync is queued now, then every hour.',
          }),
        onError: (error) =>
          toast({
            title: 'Not changed',
            description: serverMessageOr(error, 'The change could not be saved. Try again.'),
            variant: 'destructive',
          }),
      },
    );
  }

  return (
    <div className="space-y-5" data-testid="manage-integration">
      <div className="flex flex-wrap items-center gap-2">
        <Pill tone={status.tone} testId="integration-status">
          {status.label}
        </Pill>
        <span className="text-sm text-muted-foreground">Installed {formatDateTime(integration.createdAt)}</span>
      </div>

      <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-6 gap-y-1.5 text-sm">
        <Row term="Last sync" testId="last-sync">
          {integration.lastSync
            ? `${formatDateTime(integration.lastSync)} (${syncFreshness(integration.lastSync)})`
            : 'Never synced'}
        </Row>
        {integration.nextSyncAt && !paused && (
          <Row term="Next sync not before">{formatDateTime(integration.nextSyncAt)}</Row>
        )}
        <Row term="Last error" testId="last-error">
          {integration.lastError ? (
            <span className="text-red-700">
              {integration.lastError}
              {integration.lastErrorAt && (
                <span className="block text-xs text-muted-foreground">{formatDateTime(integration.lastErrorAt)}</span>
              )}
            </span>
          ) : (
            'None'
          )}
        </Row>
        {integration.consecutiveFailures > 0 && (
          <Row term="Failed syncs in a row">{integration.consecutiveFailures}</Row>
        )}
        <Row term="Key">{integration.keyPreview ?? 'Stored encrypted'}</Row>
        {settings.map((field) => (
          <Row key={field.key} term={field.label.replace(/ \(optional\)$/, '')}>
            {integration.config[field.key]}
          </Row>
        ))}
        {integration.dailyStats ? (
          <>
            <Row term="Emails sent (30 days)">{formatCount(integration.emailsSent)}</Row>
            <Row term="Delivery rate (30 days)">{formatRate(integration.deliveryRate)}</Row>
            <Row term="Days of data">{integration.dataPoints}</Row>
          </>
        ) : (
          <Row term="Imports">{plugin.syncs}</Row>
        )}
      </dl>

      {editing ? (
        <EditSettings plugin={plugin} integration={integration} onDone={() => setEditing(false)} />
      ) : (
        <div className="flex flex-wrap gap-2">
          <Button size="sm" onClick={syncNow} disabled={sync.isPending || paused}>
            <RefreshCw aria-hidden="true" className={sync.isPending ? 'animate-spin' : undefined} />
            {sync.isPending ? 'Queuing...' : 'Sync now'}
          </Button>
          <Button size="sm" variant="outline" onClick={() => setEditing(true)}>
            <Settings2 aria-hidden="true" />
            Edit settings
          </Button>
          <Button size="sm" variant="outline" onClick={() => setPaused(!paused)} disabled={update.isPending}>
            {paused ? <Play aria-hidden="true" /> : <Pause aria-hidden="true" />}
            {paused ? 'Resume syncing' : 'Pause syncing'}
          </Button>
          <Button size="sm" variant="outline" className="text-destructive" onClick={() => setConfirming(true)}>
            <Trash2 aria-hidden="true" />
            Uninstall
          </Button>
        </div>
      )}
      {paused && <p className="text-sm text-muted-foreground">Syncing is paused: resume it to sync again.</p>}

      <UninstallDialog
        open={confirming}
        onOpenChange={setConfirming}
        plugin={plugin}
        integration={integration}
        onUninstalled={() => {
          setConfirming(false);
          onUninstalled();
        }}
      />
    </div>
  );
}

/** Changed settings: sent to the server, which tests them with the provider before keeping them. An empty key keeps the stored one. */
function EditSettings({
  plugin,
  integration,
  onDone,
}: {
  plugin: Plugin;
  integration: Integration;
  onDone: () => void;
}) {
  const initial = Object.fromEntries(
    plugin.fields.filter((f) => !f.secret).map((f) => [f.key, integration.config[f.key] ?? '']),
  );
  const connection = useConnectionTest(plugin);
  const update = useUpdateMutation();
  const keep = integration.keyPreview
    ? `Leave it empty to keep the stored one (${integration.keyPreview}).`
    : 'Leave it empty to keep the stored one.';
  const hints = Object.fromEntries(plugin.fields.filter((f) => f.secret).map((f) => [f.key, keep]));

  function save(values: ConfigValues) {
    const config: Record<string, string> = {};
    for (const field of plugin.fields) {
      const value = values[field.key]?.trim() ?? '';
      // An emptied optional setting is cleared; an empty secret is left out, so the stored one stays.
      if (!field.secret || value) config[field.key] = value;
    }
    update.mutate(
      { id: integration.id, body: { config } },
      {
        onSuccess: () => {
          toast({
            title: 'Settings saved',
            description: `${plugin.name} accepted them; a sync is queued when they changed.`,
          });
          onDone();
        },
        onError: (error) => {
          const message = serverMessageOr(error, 'The settings could not be saved. Try again.');
          const refusal = refusalIn(message);
          if (refusal) connection.setOutcome({ success: false, error: refusal });
          toast({ title: 'Settings not saved', description: message, variant: 'destructive' });
        },
      },
    );
  }

  return (
    <Form
      schema={configSchema(plugin, { keepSecrets: true })}
      defaultValues={configDefaults(plugin, initial)}
      pending={update.isPending}
      onSubmit={save}
      className="space-y-4 rounded-md border p-4"
      data-testid="edit-settings"
    >
      {() => (
        <SettingsFields
          plugin={plugin}
          hints={hints}
          connection={connection}
          saving={update.isPending}
          onCancel={onDone}
        />
      )}
    </Form>
  );
}

function SettingsFields({
  plugin,
  hints,
  connection,
  saving,
  onCancel,
}: {
  plugin: Plugin;
  hints: Record<string, string>;
  connection: ReturnType<typeof useConnectionTest>;
  saving: boolean;
  onCancel: () => void;
}) {
  const { control, getValues, trigger } = useConfigFormContext();
  useWatch({ control });
  const testable = secretsTyped(plugin, getValues());
  const busy = saving || connection.testing;
  return (
    <>
      <h3 className="font-semibold">Edit settings</h3>
      <ConfigFields
        plugin={plugin}
        secretHints={hints}
        disabled={saving}
        onEdited={() => connection.setOutcome(null)}
      />
      {!testable && (
        <p className="text-xs text-muted-foreground">
          Type the key again to test it here; Save tests changed settings with {plugin.name} either way.
        </p>
      )}
      <ConnectionResult outcome={connection.outcome} />
      <div className="flex flex-wrap justify-end gap-2">
        <Button variant="outline" onClick={onCancel} disabled={busy}>
          Cancel
        </Button>
        <Button
          variant="outline"
          onClick={async () => {
            if (await trigger()) connection.run(getValues());
          }}
          disabled={busy || !testable}
        >
          {connection.testing ? 'Testing...' : 'Test Connection'}
        </Button>
        <Button type="submit" disabled={busy}>
          {saving ? 'Saving...' : 'Save'}
        </Button>
      </div>
    </>
  );
}

function UninstallDialog({
  open,
  onOpenChange,
  plugin,
  integration,
  onUninstalled,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  plugin: Plugin;
  integration: Integration;
  onUninstalled: () => void;
}) {
  const uninstall = useUninstallMutation(() => {
    toast({ title: `${plugin.name} uninstalled` });
    onUninstalled();
  });
  const [keepMetrics, setKeepMetrics] = useState(false);
  const checkboxId = useId();
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={onOpenChange}
      title={`Uninstall ${plugin.name}?`}
      description={
        <>
          Its stored credentials are deleted and it stops syncing.{' '}
          {integration.dailyStats && 'The daily figures it synced are deleted too, unless you keep them.'}
        </>
      }
      confirmLabel="Uninstall"
      pendingLabel="Uninstalling..."
      pending={uninstall.isPending}
      onConfirm={() =>
        uninstall.mutate(
          { id: integration.id, keepMetrics },
          {
            onError: (error) =>
              toast({
                title: 'Not uninstalled',
                description: serverMessageOr(error, 'The integration could not be uninstalled. Try again.'),
                variant: 'destructive',
              }),
          },
        )
      }
      testId="uninstall-dialog"
    >
      {integration.dailyStats && (
        <label htmlFor={checkboxId} className="flex items-center gap-2 text-sm">
          <input
            id={checkboxId}
            type="checkbox"
            className="size-4"
            checked={keepMetrics}
            onChange={(e) => setKeepMetrics(e.target.checked)}
          />
          Keep the daily figures it synced
        </label>
      )}
    </ConfirmDialog>
  );
}
