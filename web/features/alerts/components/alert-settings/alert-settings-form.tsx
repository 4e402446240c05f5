import { useState } from 'react';
import { useWatch } from 'react-hook-form';
import type { AlertSettings } from '@contracts/alert-settings';
import { planHasFeature } from '@contracts/plans';
import { Form } from '../../../../components/form';
import { Button } from '../../../../components/ui/button';
import { toast } from '../../../../components/ui/use-toast';
import { useAuth } from '../../../../lib/session';
import { useUpdateAlertSettingsMutation } from '../../api';
import { changedFields, fieldNamedIn, settingsFields, toDraft } from '../../settings-draft';
import { ChannelsSection } from './channels-section';
import { DeliverySection } from './delivery-section';
import { EmailSection } from './email-section';
import { ThresholdsSection } from './thresholds-section';
import { useSettingsForm } from './settings-layout';

/** The Alert Settings form (part 2, sections 2, 5 and 9), persisted: Save sends the changed fields only. */
export function AlertSettingsForm({ saved }: { saved: AlertSettings }) {
  const { user } = useAuth();
  const canUseChannels = user ? planHasFeature(user.subscriptionPlan, 'advanced_alerting') : false;
  // Only an explicit false (the server has no SMS provider) locks the switch.
  const smsAvailable = saved.smsAvailable !== false;
  const update = useUpdateAlertSettingsMutation();
  const [editingSlackUrl, setEditingSlackUrl] = useState(saved.slackWebhookPreview === null);
  const [signingSecret, setSigningSecret] = useState<string | null>(null);

  return (
    <Form
      schema={settingsFields(saved)}
      defaultValues={toDraft(saved)}
      pending={update.isPending}
      fieldOf={fieldNamedIn}
      aria-label="Alert Settings"
      data-testid="alert-settings-form"
      className="space-y-4"
      onInvalid={() =>
        toast({ title: 'Error', description: 'Please correct the highlighted fields.', variant: 'destructive' })
      }
      onSubmit={(changes, refuse, form) =>
        update.mutate(changes, {
          onSuccess: ({ webhookSigningSecret, ...next }) => {
            form.reset(toDraft(next));
            setSigningSecret(webhookSigningSecret ?? (next.webhookEnabled ? signingSecret : null));
            setEditingSlackUrl(next.slackWebhookPreview === null);
            toast({ title: 'Alert settings saved', description: 'Your alert preferences have been updated.' });
          },
          onError: (failure) =>
            toast({
              title: 'Error',
              description: refuse(failure, 'Failed to update alert settings'),
              variant: 'destructive',
            }),
        })
      }
    >
      {() => (
        <>
          <EmailSection />
          <ThresholdsSection />
          <ChannelsSection
            canUseChannels={canUseChannels}
            smsAvailable={smsAvailable}
            savedSms={{ number: saved.smsNumber, verified: saved.smsVerified === true }}
            slackPreview={saved.slackWebhookPreview}
            editingSlackUrl={editingSlackUrl}
            onEditSlackUrl={() => setEditingSlackUrl(true)}
            signingSecret={signingSecret}
          />
          <DeliverySection />
          <SaveBar saved={saved} pending={update.isPending} />
        </>
      )}
    </Form>
  );
}

/** Save, enabled only when something differs from the saved settings (what the PUT would send). */
function SaveBar({ saved, pending }: { saved: AlertSettings; pending: boolean }) {
  const { control, getValues } = useSettingsForm();
  // Re-rendered by every change, compared against `saved` as it is now (a save replaces both at once).
  useWatch({ control });
  const dirty = Object.keys(changedFields(saved, getValues())).length > 0;
  return (
    <div className="flex flex-wrap items-center justify-end gap-3">
      {!dirty && <p className="text-sm text-muted-foreground">No changes to save.</p>}
      <Button type="submit" disabled={!dirty || pending}>
        {pending ? 'Saving...' : 'Save Settings'}
      </Button>
    </div>
  );
}
