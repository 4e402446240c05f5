import * as React from 'react';
import { Label } from './label';

interface FormFieldProps {
  id: string;
  label: string;
  error?: string;
  hint?: React.ReactNode;
  /** The control; it receives id, aria-invalid and aria-describedby so label and error are announced. */
  children: React.ReactElement<React.InputHTMLAttributes<HTMLInputElement>>;
}

/** Label + control + validation message, wired together for assistive technology. */
export function FormField({ id, label, error, hint, children }: FormFieldProps) {
  return (
    <div className="space-y-2">
      <Label htmlFor={id}>{label}</Label>
      {React.cloneElement(children, {
        id,
        'aria-invalid': error ? true : undefined,
        'aria-describedby': describedByOf(id, hint, error),
      })}
      <FieldNotes id={id} hint={hint} error={error} />
    </div>
  );
}

/** What a control's aria-describedby names: the ids of its hint and its error, where it has them. */
export function describedByOf(id: string, hint?: React.ReactNode, error?: string): string | undefined {
  return [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(' ') || undefined;
}

/** A field's hint and validation message below its control, at the ids `describedByOf` names. */
export function FieldNotes({ id, hint, error }: { id: string; hint?: React.ReactNode; error?: string }) {
  return (
    <>
      {hint && (
        <p id={`${id}-hint`} className="text-xs text-muted-foreground">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="text-sm font-medium text-destructive">
          {error}
        </p>
      )}
    </>
  );
}
