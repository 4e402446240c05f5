import { useId, useState } from 'react';
import { Eye, EyeOff } from 'lucide-react';
import type { Integration as Plugin, PluginField } from '@content/integrations';
import { Button } from '../../../components/ui/button';
import { describedByOf, FieldNotes } from '../../../components/ui/form-field';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { cn } from '../../../lib/utils';
import { useConfigFormContext } from '../config-form';

const TEXTAREA =
  'flex min-h-28 w-full rounded-md border border-input bg-background px-3 py-2 font-mono text-sm placeholder:text-muted-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 aria-invalid:border-destructive';

/**
 * The plugin's config fields (part 2, section 3), drawn from the catalogue: a secret field is hidden
 * and has a Show/Hide button; `secretHints` says what an empty secret means when editing (the stored
 * key is kept). Errors appear under their field and are announced with it, until the field is changed;
 * `onEdited` hears every change (it makes the last connection test's answer stale).
 */
export function ConfigFields({
  plugin,
  secretHints,
  disabled,
  onEdited,
}: {
  plugin: Plugin;
  secretHints?: Record<string, string>;
  disabled?: boolean;
  onEdited: () => void;
}) {
  return (
    <div className="space-y-4">
      {plugin.fields.map((field) => (
        <ConfigField
          key={field.key}
          field={field}
          hint={secretHints?.[field.key]}
          disabled={disabled}
          onEdited={onEdited}
        />
      ))}
    </div>
  );
}

function ConfigField({
  field,
  hint,
  disabled,
  onEdited,
}: {
  field: PluginField;
  hint?: string;
  disabled?: boolean;
  onEdited: () => void;
}) {
  const { register, clearErrors, formState } = useConfigFormContext();
  const error = formState.errors[field.key]?.message;
  const id = useId();
  const [shown, setShown] = useState(false);
  const notes = [hint, field.help].filter(Boolean).join(' ');
  const common = {
    ...register(field.key, {
      // Its error is moot once the value changes, until the next try.
      onChange: () => {
        clearErrors(field.key);
        onEdited();
      },
    }),
    id,
    disabled,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': describedByOf(id, notes, error),
    'aria-required': field.required || undefined,
    placeholder: field.placeholder,
    autoComplete: 'off',
    spellCheck: false,
  } as const;
  return (
    <div className="space-y-2" data-testid={`field-${field.key}`}>
      <Label htmlFor={id}>{field.label}</Label>
      {field.multiline ? (
        <textarea {...common} className={cn(TEXTAREA, field.secret && !shown && '[-webkit-text-security:disc]')} />
      ) : (
        <div className="flex gap-2">
          <Input {...common} type={field.secret && !shown ? 'password' : 'text'} className="font-mono" />
          {field.secret && (
            <Button
              variant="outline"
              size="icon"
              className="shrink-0"
              aria-label={shown ? `Hide ${field.label}` : `Show ${field.label}`}
              aria-pressed={shown}
              aria-controls={id}
              disabled={disabled}
              onClick={() => setShown(!shown)}
            >
              {shown ? <EyeOff aria-hidden="true" /> : <Eye aria-hidden="true" />}
            </Button>
          )}
        </div>
      )}
      {field.multiline && field.secret && (
        <Button
          variant="outline"
          size="sm"
          aria-pressed={shown}
          aria-controls={id}
          disabled={disabled}
          onClick={() => setShown(!shown)}
        >
          {shown ? <EyeOff aria-hidden="true" /> : <Eye aria-hidden="true" />}
          {shown ? `Hide ${field.label}` : `Show ${field.label}`}
        </Button>
      )}
      <FieldNotes id={id} hint={notes} error={error} />
    </div>
  );
}
