import { useWatch } from 'react-hook-form';
import { Lock } from 'lucide-react';
import { SMS_UNAVAILABLE } from '@contracts/alert-settings';
import { CopyButton } from '../../../../components/copy-button';
import { PlanRequiredBanner } from '../../../../components/plan-required-banner';
import { FormField } from '../../../../components/ui/form-field';
import { Input } from '../../../../components/ui/input';
import { Section, SwitchRow, useSettingsForm } from './settings-layout';
import { SlackFields } from './slack-fields';
import { SmsVerification } from './sms-verification';

/** Slack, SMS and webhooks: the channels beyond e-mail, which need the advanced_alerting plan feature. */
export function ChannelsSection({
  canUseChannels,
  smsAvailable,
  savedSms,
  slackPreview,
  editingSlackUrl,
  onEditSlackUrl,
  signingSecret,
}: {
  canUseChannels: boolean;
  smsAvailable: boolean;
  /** The SMS number as saved and whether it is verified: the code goes to the saved number, not the typed one. */
  savedSms: { number: string | null; verified: boolean };
  slackPreview: string | null;
  editingSlackUrl: boolean;
  onEditSlackUrl: () => void;
  /** The webhook's signing secret, from the save that made it: shown this once, never fetched again. */
  signingSecret: string | null;
}) {
  const { register, control, formState } = useSettingsForm();
  const [slackEnabled, smsEnabled, webhookEnabled, typedNumber] = useWatch({
    control,
    name: ['slackEnabled', 'smsEnabled', 'webhookEnabled', 'smsNumber'],
  });
  const locked = !canUseChannels;
  return (
    <Section
      title={
        <>
          {locked && <Lock className="size-4" aria-label="Locked" data-testid="channels-lock-icon" />}
          Slack, SMS and webhooks
        </>
      }
      description="Alerts sent beyond e-mail."
    >
      {locked && (
        <PlanRequiredBanner feature="advanced_alerting" testId="channels-plan-lock">
          Slack, SMS and webhook alerts come with the Professional plan. On your plan, alerts reach you by e-mail and on
          this page.
        </PlanRequiredBanner>
      )}
      {/* Without the plan a channel can still be turned off (a downgraded account must be able to), never on or re-pointed. */}
      <fieldset className="space-y-4" data-testid="channel-fields">
        <legend className="sr-only">Slack, SMS and webhook channels</legend>
        <SwitchRow name="slackEnabled" label="Slack notifications" disabled={locked && !slackEnabled} />
        {slackEnabled && (
          <SlackFields preview={slackPreview} editing={editingSlackUrl} onEdit={onEditSlackUrl} locked={locked} />
        )}
        <SwitchRow
          name="smsEnabled"
          label="SMS notifications"
          hint={smsAvailable ? 'Critical alerts only.' : SMS_UNAVAILABLE}
          disabled={(locked || !smsAvailable) && !smsEnabled}
        />
        {smsEnabled && (
          <FormField
            id="alert-smsNumber"
            label="Phone number"
            error={formState.errors.smsNumber?.message}
            hint="International format, e.g. +14155550123"
          >
            <Input
              type="tel"
              autoComplete="tel"
              placeholder="+14155550123"
              {...register('smsNumber')}
              disabled={locked}
            />
          </FormField>
        )}
        {smsEnabled && smsAvailable && savedSms.number !== null && savedSms.number === typedNumber && (
          <SmsVerification number={savedSms.number} verified={savedSms.verified} />
        )}
        <SwitchRow name="webhookEnabled" label="Webhook notifications" disabled={locked && !webhookEnabled} />
        {webhookEnabled && (
          <FormField
            id="alert-webhookUrl"
            label="Webhook URL"
            error={formState.errors.webhookUrl?.message}
            hint="HTTPS only; alert.created and alert.resolved events are POSTed to it as signed JSON, at once."
          >
            <Input
              type="url"
              autoComplete="off"
              placeholder="https://example.com/hooks/alerts"
              {...register('webhookUrl')}
              disabled={locked}
            />
          </FormField>
        )}
        {signingSecret && <SigningSecret secret={signingSecret} />}
      </fieldset>
    </Section>
  );
}

function SigningSecret({ secret }: { secret: string }) {
  return (
    <div
      className="space-y-2 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm dark:bg-amber-950/30"
      data-testid="webhook-signing-secret"
    >
      <p className="font-medium">Webhook signing secret</p>
      <div className="flex items-center gap-2">
        <code className="min-w-0 flex-1 rounded bg-background px-2 py-1 text-xs wrap-anywhere">{secret}</code>
        <CopyButton value={secret} label="Copy signing secret" />
      </div>
      <p className="text-muted-foreground">
        Shown once: copy it now. Your receiver checks each request&apos;s InboxPulse-Signature header with it. Saving a
        new webhook URL makes a new secret.
      </p>
    </div>
  );
}
