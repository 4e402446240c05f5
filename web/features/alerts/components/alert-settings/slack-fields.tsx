import { useWatch } from 'react-hook-form';
import { Button } from '../../../../components/ui/button';
import { FormField } from '../../../../components/ui/form-field';
import { Input } from '../../../../components/ui/input';
import { FieldMessage, useSettingsForm } from './settings-layout';

/**
 * The Slack webhook URL and channel. A saved URL is never sent back to the browser: it shows as its
 * preview, with Change (type a new one) and Remove (null, removed when saved).
 */
export function SlackFields({
  preview,
  editing,
  onEdit,
  locked,
}: {
  preview: string | null;
  editing: boolean;
  onEdit: () => void;
  locked: boolean;
}) {
  const { register, setValue, control, formState } = useSettingsForm();
  const url = useWatch({ control, name: 'slackWebhookUrl' });
  const urlError = formState.errors.slackWebhookUrl?.message;
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      {editing ? (
        <FormField
          id="alert-slackWebhookUrl"
          label="Slack webhook URL"
          error={urlError}
          hint="From Slack: Incoming Webhooks, Add New Webhook to Workspace."
        >
          <Input
            type="url"
            placeholder="https://hooks.slack.com/services/..."
            autoComplete="off"
            {...register('slackWebhookUrl')}
            disabled={locked}
          />
        </FormField>
      ) : (
        <div className="min-w-0 space-y-2">
          <p className="text-sm font-medium">Slack webhook URL</p>
          {url === null ? (
            <p className="text-sm text-muted-foreground" data-testid="slack-url-removed">
              Removed when you save.
            </p>
          ) : (
            <p className="text-sm wrap-anywhere" data-testid="slack-url-preview">
              {preview}
            </p>
          )}
          <div className="flex gap-2">
            <Button variant="outline" size="sm" disabled={locked} onClick={onEdit}>
              Change
            </Button>
            {url !== null && (
              <Button variant="ghost" size="sm" disabled={locked} onClick={() => setValue('slackWebhookUrl', null)}>
                Remove
              </Button>
            )}
          </div>
          <FieldMessage message={urlError} />
        </div>
      )}
      <FormField
        id="alert-slackChannel"
        label="Slack channel"
        error={formState.errors.slackChannel?.message}
        hint="Optional, e.g. #deliverability"
      >
        <Input placeholder="#alerts" autoComplete="off" {...register('slackChannel')} disabled={locked} />
      </FormField>
    </div>
  );
}
