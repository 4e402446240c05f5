import { useState, type ReactNode } from 'react';
import { Lock } from 'lucide-react';
import {
  ALERT_SETTING_DEFAULTS,
  SMS_UNAVAILABLE,
  type AlertFrequency,
  type AlertSettings,
} from '@contracts/alert-settings';
import { planHasFeature } from '@contracts/plans';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { FormField } from '../../../components/ui/form-field';
import { Input } from '../../../components/ui/input';
import { Switch } from '../../../components/ui/switch';
import { toast } from '../../../components/ui/use-toast';
import { serverMessageOr } from '../../../lib/api-client';
import { useAuth } from '../../../lib/session';
import { useUpdateAlertSettingsMutation } from '../api';
import {
  changedFields,
  fieldNamedIn,
  toDraft,
  validateChanges,
  type DraftField,
  type FieldErrors,
  type SettingsDraft,
} from '../settings-draft';
import { PlanRequiredBanner } from '../../../components/plan-required-banner';
import { CopyButton } from '../../../components/copy-button';

const FREQUENCIES: { value: AlertFrequency; label: string }[] = [
  { value: 'immediate', label: 'Immediate' },
  { value: 'hourly', label: 'Hourly digest' },
  { value: 'daily', label: 'Daily digest' },
  { value: 'weekly', label: 'Weekly summary' },
];

const EMAIL_TYPES = [
  { field: 'emailDeliverability', label: 'Deliverability alerts', hint: 'Inbox placement and delivery rate drops' },
  { field: 'emailReputation', label: 'Reputation alerts', hint: 'Blocklist listings and sender score drops' },
  { field: 'emailBounce', label: 'Bounce alerts', hint: 'Bounce rate above your threshold' },
  { field: 'emailSpam', label: 'Spam alerts', hint: 'Spam complaints above your threshold' },
] as const;

const THRESHOLDS = [
  {
    field: 'inboxThreshold',
    label: 'Inbox rate threshold (%)',
    max: 100,
    step: 1,
    hint: 'Alert when the inbox placement rate falls below this.',
  },
  {
    field: 'bounceThreshold',
    label: 'Bounce rate threshold (%)',
    max: 100,
    step: 1,
    hint: `Alert when the bounce rate goes above this; by default a bounce warning at above ${ALERT_SETTING_DEFAULTS.bounceThreshold}%.`,
  },
  {
    field: 'spamThreshold',
    label: 'Spam rate threshold (%)',
    max: 10,
    step: 0.1,
    hint: 'Alert when spam complaints go above this (0 to 10, in steps of 0.1).',
  },
  {
    field: 'reputationThreshold',
    label: 'Reputation score threshold',
    max: 100,
    step: 1,
    hint: 'Alert when a sender score falls below this (0 to 100).',
  },
] as const;

const selectClass =
  'flex h-10 w-full rounded-md border border-input bg-background px-3 py-2 text-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring disabled:opacity-50';

function SwitchRow({
  id,
  label,
  hint,
  checked,
  onChange,
  disabled,
}: {
  id: string;
  label: ReactNode;
  hint?: string;
  checked: boolean;
  onChange: (on: boolean) => void;
  disabled?: boolean;
}) {
  return (
    <div className="flex items-start justify-between gap-4">
      <div className="min-w-0">
        <label htmlFor={id} className="text-sm font-medium">
          {label}
        </label>
        {hint && <p className="text-xs text-muted-foreground">{hint}</p>}
      </div>
      <Switch id={id} checked={checked} onCheckedChange={onChange} disabled={disabled} />
    </div>
  );
}

function Section({ title, description, children }: { title: ReactNode; description?: string; children: ReactNode }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2 text-base">{title}</CardTitle>
        {description && <CardDescription>{description}</CardDescription>}
      </CardHeader>
      <CardContent className="space-y-4">{children}</CardContent>
    </Card>
  );
}

/** The Alert Settings form (part 2, sections 2, 5 and 9), persisted: Save sends the changed fields only. */
export function AlertSettingsForm({ saved }: { saved: AlertSettings }) {
  const { user } = useAuth();
  const canUseChannels = user ? planHasFeature(user.subscriptionPlan, 'advanced_alerting') : false;
  // Only an explicit false (the server has no SMS provider) locks the switch.
  const smsAvailable = saved.smsAvailable !== false;
  const update = useUpdateAlertSettingsMutation();
  const [draft, setDraft] = useState<SettingsDraft>(() => toDraft(saved));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [editingSlackUrl, setEditingSlackUrl] = useState(saved.slackWebhookPreview === null);
  /** The webhook's signing secret, from the save that made it: shown this once, never fetched again. */
  const [signingSecret, setSigningSecret] = useState<string | null>(null);

  const set = <K extends keyof SettingsDraft>(field: K, value: SettingsDraft[K]) =>
    setDraft((old) => ({ ...old, [field]: value }));
  const changes = changedFields(saved, draft);
  const dirty = Object.keys(changes).length > 0;
  const error = (field: DraftField) => errors[field];

  function save() {
    const checked = validateChanges(changes);
    if (!checked.ok) {
      setErrors(checked.errors);
      toast({ title: 'Error', description: 'Please correct the highlighted fields.', variant: 'destructive' });
      return;
    }
    setErrors({});
    update.mutate(checked.body, {
      onSuccess: ({ webhookSigningSecret, ...next }) => {
        setDraft(toDraft(next));
        setSigningSecret(webhookSigningSecret ?? (next.webhookEnabled ? signingSecret : null));
        setEditingSlackUrl(next.slackWebhookPreview === null);
        toast({ title: 'Alert settings saved', description: 'Your alert preferences have been updated.' });
      },
      onError: (failure) => {
        const message = serverMessageOr(failure, 'Failed to update alert settings');
        const field = fieldNamedIn(message);
        if (field) setErrors({ [field]: message });
        toast({ title: 'Error', description: message, variant: 'destructive' });
      },
    });
  }

  return (
    <form
      aria-label="Alert Settings"
      data-testid="alert-settings-form"
      className="space-y-4"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        save();
      }}
    >
      <Section title="Email notifications" description="Which alerts are e-mailed to you.">
        {EMAIL_TYPES.map(({ field, label, hint }) => (
          <SwitchRow
            key={field}
            id={`alert-${field}`}
            label={label}
            hint={hint}
            checked={draft[field]}
            onChange={(on) => set(field, on)}
          />
        ))}
      </Section>

      <Section title="Thresholds" description="When a figure crosses its threshold, an alert is raised.">
        <div className="grid gap-4 sm:grid-cols-2">
          {THRESHOLDS.map(({ field, label, max, step, hint }) => (
            <FormField key={field} id={`alert-${field}`} label={label} hint={hint} error={error(field)}>
              <Input
                type="number"
                inputMode="decimal"
                min={0}
                max={max}
                step={step}
                value={draft[field]}
                onChange={(event) => set(field, event.target.value)}
              />
            </FormField>
          ))}
        </div>
      </Section>

      <Section
        title={
          <>
            {!canUseChannels && <Lock className="size-4" aria-label="Locked" data-testid="channels-lock-icon" />}
            Slack, SMS and webhooks
          </>
        }
        description="Alerts sent beyond e-mail."
      >
        {!canUseChannels && (
          <PlanRequiredBanner feature="advanced_alerting" testId="channels-plan-lock">
            Slack, SMS and webhook alerts come with the Professional plan. On your plan, alerts reach you by e-mail and
            on this page.
          </PlanRequiredBanner>
        )}
        {/* Without the plan a channel can still be turned off (a downgraded account must be able to), never on or re-pointed. */}
        <fieldset className="space-y-4" data-testid="channel-fields">
          <legend className="sr-only">Slack, SMS and webhook channels</legend>
          <SwitchRow
            id="alert-slackEnabled"
            label="Slack notifications"
            checked={draft.slackEnabled}
            onChange={(on) => set('slackEnabled', on)}
            disabled={!canUseChannels && !draft.slackEnabled}
          />
          {draft.slackEnabled && (
            <div className="grid gap-4 sm:grid-cols-2">
              {editingSlackUrl ? (
                <FormField
                  id="alert-slackWebhookUrl"
                  label="Slack webhook URL"
                  error={error('slackWebhookUrl')}
                  hint="From Slack: Incoming Webhooks, Add New Webhook to Workspace."
                >
                  <Input
                    type="url"
                    placeholder="https://hooks.slack.com/services/..."
                    autoComplete="off"
                    disabled={!canUseChannels}
                    value={draft.slackWebhookUrl ?? ''}
                    onChange={(event) => set('slackWebhookUrl', event.target.value)}
                  />
                </FormField>
              ) : (
                <div className="min-w-0 space-y-2">
                  <p className="text-sm font-medium">Slack webhook URL</p>
                  {draft.slackWebhookUrl === null ? (
                    <p className="text-sm text-muted-foreground" data-testid="slack-url-removed">
                      Removed when you save.
                    </p>
                  ) : (
                    <p className="text-sm wrap-anywhere" data-testid="slack-url-preview">
                      {saved.slackWebhookPreview}
                    </p>
                  )}
                  <div className="flex gap-2">
                    <Button
                      variant="outline"
                      size="sm"
                      disabled={!canUseChannels}
                      onClick={() => setEditingSlackUrl(true)}
                    >
                      Change
                    </Button>
                    {draft.slackWebhookUrl !== null && (
                      <Button
                        variant="ghost"
                        size="sm"
                        disabled={!canUseChannels}
                        onClick={() => set('slackWebhookUrl', null)}
                      >
                        Remove
                      </Button>
                    )}
                  </div>
                  {error('slackWebhookUrl') && (
                    <p className="text-sm font-medium text-destructive">{error('slackWebhookUrl')}</p>
                  )}
                </div>
              )}
              <FormField
                id="alert-slackChannel"
                label="Slack channel"
                error={error('slackChannel')}
                hint="Optional, e.g. #deliverability"
              >
                <Input
                  placeholder="#alerts"
                  autoComplete="off"
                  disabled={!canUseChannels}
                  value={draft.slackChannel}
                  onChange={(event) => set('slackChannel', event.target.value)}
                />
              </FormField>
            </div>
          )}
          <SwitchRow
            id="alert-smsEnabled"
            label="SMS notifications"
            hint={smsAvailable ? 'Critical alerts only.' : SMS_UNAVAILABLE}
            checked={draft.smsEnabled}
            onChange={(on) => set('smsEnabled', on)}
            disabled={(!canUseChannels || !smsAvailable) && !draft.smsEnabled}
          />
          {draft.smsEnabled && (
            <FormField
              id="alert-smsNumber"
              label="Phone number"
              error={error('smsNumber')}
              hint="International format, e.g. +14155550123"
            >
              <Input
                type="tel"
                autoComplete="tel"
                placeholder="+14155550123"
                disabled={!canUseChannels}
                value={draft.smsNumber}
                onChange={(event) => set('smsNumber', event.target.value)}
              />
            </FormField>
          )}
          <SwitchRow
            id="alert-webhookEnabled"
            label="Webhook notifications"
            checked={draft.webhookEnabled}
            onChange={(on) => set('webhookEnabled', on)}
            disabled={!canUseChannels && !draft.webhookEnabled}
          />
          {draft.webhookEnabled && (
            <FormField
              id="alert-webhookUrl"
              label="Webhook URL"
              error={error('webhookUrl')}
              hint="HTTPS only; alert.created and alert.resolved events are POSTed to it as signed JSON, at once."
            >
              <Input
                type="url"
                autoComplete="off"
                placeholder="https://example.com/hooks/alerts"
                disabled={!canUseChannels}
                value={draft.webhookUrl}
                onChange={(event) => set('webhookUrl', event.target.value)}
              />
            </FormField>
          )}
          {signingSecret && (
            <div
              className="space-y-2 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm dark:bg-amber-950/30"
              data-testid="webhook-signing-secret"
            >
              <p className="font-medium">Webhook signing secret</p>
              <div className="flex items-center gap-2">
                <code className="min-w-0 flex-1 rounded bg-background px-2 py-1 text-xs wrap-anywhere">
                  {signingSecret}
                </code>
                <CopyButton value={signingSecret} label="Copy signing secret" />
              </div>
              <p className="text-muted-foreground">
                Shown once: copy it now. Your receiver checks each request&apos;s InboxPulse-Signature header with it.
                Saving a new webhook URL makes a new secret.
              </p>
            </div>
          )}
        </fieldset>
      </Section>

      <Section title="Delivery" description="How often alerts reach you, and when not to.">
        <div className="space-y-2">
          <label htmlFor="alert-frequency" className="text-sm font-medium">
            Frequency
          </label>
          <select
            id="alert-frequency"
            className={selectClass}
            value={draft.frequency}
            onChange={(event) => set('frequency', event.target.value as AlertFrequency)}
          >
            {FREQUENCIES.map(({ value, label }) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
          {error('frequency') && <p className="text-sm font-medium text-destructive">{error('frequency')}</p>}
        </div>
        <SwitchRow
          id="alert-quietHours"
          label="Quiet hours"
          hint="No notifications between these times; what is raised meanwhile is sent when they end."
          checked={draft.quietHoursOn}
          onChange={(on) => set('quietHoursOn', on)}
        />
        {draft.quietHoursOn && (
          <div className="grid gap-4 sm:grid-cols-3">
            <FormField id="alert-quietStart" label="From">
              <Input type="time" value={draft.quietStart} onChange={(event) => set('quietStart', event.target.value)} />
            </FormField>
            <FormField id="alert-quietEnd" label="Until">
              <Input type="time" value={draft.quietEnd} onChange={(event) => set('quietEnd', event.target.value)} />
            </FormField>
            <FormField id="alert-quietTimeZone" label="Time zone" hint="e.g. Europe/Paris">
              <Input
                autoComplete="off"
                value={draft.quietTimeZone}
                onChange={(event) => set('quietTimeZone', event.target.value)}
              />
            </FormField>
          </div>
        )}
        {error('quietHours') && (
          <p className="text-sm font-medium text-destructive" data-testid="quiet-hours-error">
            {error('quietHours')}
          </p>
        )}
      </Section>

      <div className="flex flex-wrap items-center justify-end gap-3">
        {!dirty && <p className="text-sm text-muted-foreground">No changes to save.</p>}
        <Button type="submit" disabled={!dirty || update.isPending}>
          {update.isPending ? 'Saving...' : 'Save Settings'}
        </Button>
      </div>
    </form>
  );
}
