import { useId, useState } from 'react';
import { Eye, EyeOff } from 'lucide-react';
import type { Integration as Plugin, PluginField } from '@content/integrations';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { cn } from '../../../lib/utils';

const TEXTAREA =
  'flex min-h-28 w-full rounded-md border border-input bg-background px-3 py-2 font-mono text-sm placeholder:text-muted-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 aria-invalid:border-destructive';

/**
 * The plugin's config fields (part 2, section 3), drawn from the catalogue: a secret field is hidden
 * and has a Show/Hide button; `secretHints` says what an empty secret means when editing (the stored
 * key is kept). Errors appear under their field and are announced with it.
 */
export function ConfigFields({
  plugin,
  values,
  onChange,
  errors,
  secretHints,
  disabled,
}: {
  plugin: Plugin;
  values: Record<string, string>;
  onChange: (key: string, value: string) => void;
  errors: Record<string, string | undefined>;
  secretHints?: Record<string, string>;
  disabled?: boolean;
}) {
  return (
    <div className="space-y-4">
      {plugin.fields.map((field) => (
        <ConfigField
          key={field.key}
          field={field}
          value={values[field.key] ?? ''}
          onChange={(value) => onChange(field.key, value)}
          error={errors[field.key]}
          hint={secretHints?.[field.key]}
          disabled={disabled}
        />
      ))}
    </div>
  );
}

function ConfigField({
  field,
  value,
  onChange,
  error,
  hint,
  disabled,
}: {
  field: PluginField;
  value: string;
  onChange: (value: string) => void;
  error?: string;
  hint?: string;
  disabled?: boolean;
}) {
  const id = useId();
  const [shown, setShown] = useState(false);
  const helpId = `${id}-help`;
  const errorId = `${id}-error`;
  const describedBy =
    [field.help || hint ? helpId : null, error ? errorId : null].filter(Boolean).join(' ') || undefined;
  const common = {
    id,
    value,
    disabled,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': describedBy,
    'aria-required': field.required || undefined,
    placeholder: field.placeholder,
    autoComplete: 'off',
    spellCheck: false,
  } as const;
  return (
    <div className="space-y-2" data-testid={`field-${field.key}`}>
      <Label htmlFor={id}>{field.label}</Label>
      {field.multiline ? (
        <textarea
          {...common}
          className={cn(TEXTAREA, field.secret && !shown && '[-webkit-text-security:disc]')}
          onChange={(e) => onChange(e.target.value)}
        />
      ) : (
        <div className="flex gap-2">
          <Input
            {...common}
            type={field.secret && !shown ? 'password' : 'text'}
            className="font-mono"
            onChange={(e) => onChange(e.target.value)}
          />
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
      {(field.help || hint) && (
        <p id={helpId} className="text-xs text-muted-foreground">
          {[hint, field.help].filter(Boolean).join(' ')}
        </p>
      )}
      {error && (
        <p id={errorId} className="text-sm font-medium text-destructive">
          {error}
        </p>
      )}
    </div>
  );
}
