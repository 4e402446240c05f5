import { ALERT_SETTING_DEFAULTS } from '@contracts/alert-settings';
import { FormField } from '../../../../components/ui/form-field';
import { Input } from '../../../../components/ui/input';
import { Section, useSettingsForm } from './settings-layout';

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

/** The figures that raise an alert when crossed. */
export function ThresholdsSection() {
  const { register, formState } = useSettingsForm();
  return (
    <Section title="Thresholds" description="When a figure crosses its threshold, an alert is raised.">
      <div className="grid gap-4 sm:grid-cols-2">
        {THRESHOLDS.map(({ field, label, max, step, hint }) => (
          <FormField
            key={field}
            id={`alert-${field}`}
            label={label}
            hint={hint}
            error={formState.errors[field]?.message}
          >
            <Input type="number" inputMode="decimal" min={0} max={max} step={step} {...register(field)} />
          </FormField>
        ))}
      </div>
    </Section>
  );
}
