import type { ReactNode } from 'react';
import { useController, useFormContext } from 'react-hook-form';
import type { UpdateAlertSettings } from '@contracts/alert-settings';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../../components/ui/card';
import { Switch } from '../../../../components/ui/switch';
import type { SettingsDraft } from '../../settings-draft';

/** The Alert Settings form's state, as each section reads it from the one <Form> around them. */
export const useSettingsForm = () => useFormContext<SettingsDraft, unknown, UpdateAlertSettings>();

type OnOffField = {
  [K in keyof SettingsDraft]: SettingsDraft[K] extends boolean ? K : never;
}[keyof SettingsDraft];

export const selectClass =
  'flex h-10 w-full rounded-md border border-input bg-background px-3 py-2 text-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring disabled:opacity-50';

/** An on/off setting: its label and hint on the left, the switch on the right. */
export function SwitchRow({
  name,
  label,
  hint,
  disabled,
}: {
  name: OnOffField | 'quietHours.on';
  label: ReactNode;
  hint?: string;
  disabled?: boolean;
}) {
  const { field } = useController({ name, control: useSettingsForm().control });
  const id = `alert-${name === 'quietHours.on' ? 'quietHours' : name}`;
  return (
    <div className="flex items-start justify-between gap-4">
      <div className="min-w-0">
        <label htmlFor={id} className="text-sm font-medium">
          {label}
        </label>
        {hint && <p className="text-xs text-muted-foreground">{hint}</p>}
      </div>
      <Switch id={id} checked={field.value} onCheckedChange={field.onChange} disabled={disabled} />
    </div>
  );
}

/** One card of the form. */
export function Section({
  title,
  description,
  children,
}: {
  title: ReactNode;
  description?: string;
  children: ReactNode;
}) {
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

/** A slip that belongs to no single input (the Slack URL's preview, the frequency, quiet hours as a whole). */
export function FieldMessage({ message, testId }: { message: string | undefined; testId?: string }) {
  if (!message) return null;
  return (
    <p className="text-sm font-medium text-destructive" data-testid={testId}>
      {message}
    </p>
  );
}
