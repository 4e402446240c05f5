import { useWatch } from 'react-hook-form';
import type { AlertFrequency } from '@contracts/alert-settings';
import { FormField } from '../../../../components/ui/form-field';
import { Input } from '../../../../components/ui/input';
import { FieldMessage, Section, SwitchRow, selectClass, useSettingsForm } from './settings-layout';

const FREQUENCIES: { value: AlertFrequency; label: string }[] = [
  { value: 'immediate', label: 'Immediate' },
  { value: 'hourly', label: 'Hourly digest' },
  { value: 'daily', label: 'Daily digest' },
  { value: 'weekly', label: 'Weekly summary' },
];

/** How often alerts are sent, and the quiet hours when they wait. */
export function DeliverySection() {
  const { register, control, formState } = useSettingsForm();
  const quietHoursOn = useWatch({ control, name: 'quietHours.on' });
  return (
    <Section title="Delivery" description="How often alerts reach you, and when not to.">
      <div className="space-y-2">
        <label htmlFor="alert-frequency" className="text-sm font-medium">
          Frequency
        </label>
        <select id="alert-frequency" className={selectClass} {...register('frequency')}>
          {FREQUENCIES.map(({ value, label }) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
        <FieldMessage message={formState.errors.frequency?.message} />
      </div>
      <SwitchRow
        name="quietHours.on"
        label="Quiet hours"
        hint="No notifications between these times; what is raised meanwhile is sent when they end."
      />
      {quietHoursOn && (
        <div className="grid gap-4 sm:grid-cols-3">
          <FormField id="alert-quietStart" label="From">
            <Input type="time" {...register('quietHours.start')} />
          </FormField>
          <FormField id="alert-quietEnd" label="Until">
            <Input type="time" {...register('quietHours.end')} />
          </FormField>
          <FormField id="alert-quietTimeZone" label="Time zone" hint="e.g. Europe/Paris">
            <Input autoComplete="off" {...register('quietHours.timeZone')} />
          </FormField>
        </div>
      )}
      <FieldMessage message={formState.errors.quietHours?.message} testId="quiet-hours-error" />
    </Section>
  );
}
