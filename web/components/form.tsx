import { createContext, useContext, type ComponentProps, type ReactNode } from 'react';
import {
  FormProvider,
  useForm,
  useFormState,
  type DefaultValues,
  type FieldPath,
  type FieldValues,
  type UseFormReturn,
} from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { serverMessageOr } from '../lib/api-client';
import { Button } from './ui/button';

/**
 * Files a refused request's message where it belongs and returns it (for a toast): under the field
 * the message names, or as the form's own error. The caller's fallback speaks when the server gave no words.
 */
export type Refuse = (failure: unknown, fallback: string) => string;

const Pending = createContext(false);

/**
 * The one way a form is written: react-hook-form checked by a schema built from the contract's, so a
 * slip is said at its field before a round trip; the server's refusal lands at the field it names
 * (`fieldOf`) or under the form (<FormError>); <SubmitButton> shows the request under way. The
 * request is the caller's mutation (`pending` is its isPending), so the app's one 401 handling stays.
 */
export function Form<TSchema extends z.ZodType<FieldValues, FieldValues>>({
  schema,
  defaultValues,
  pending = false,
  fieldOf,
  precheck,
  onSubmit,
  onInvalid,
  children,
  ...props
}: {
  schema: TSchema;
  defaultValues: DefaultValues<z.input<TSchema>>;
  pending?: boolean;
  /** The field a server message is about ("threshold.critical must be ..."), or undefined for the form. */
  fieldOf?: (message: string) => FieldPath<z.input<TSchema>> | undefined;
  /**
   * Runs on the values as typed, before the schema: false sends nothing and marks no field, for a slip the
   * spec answers its own way (a blank address gets the toast 'Email Required', not a field message).
   */
  precheck?: (values: z.input<TSchema>) => boolean;
  /** `form` is there for what a save changes in the form itself (its new saved values: `form.reset`). */
  onSubmit: (
    values: z.output<TSchema>,
    refuse: Refuse,
    form: UseFormReturn<z.input<TSchema>, unknown, z.output<TSchema>>,
  ) => void;
  /** Called when the schema refused the values, after each slip is shown at its field. */
  onInvalid?: () => void;
  children: (form: UseFormReturn<z.input<TSchema>, unknown, z.output<TSchema>>) => ReactNode;
} & Omit<ComponentProps<'form'>, 'onSubmit' | 'children' | 'noValidate'>) {
  const form = useForm<z.input<TSchema>, unknown, z.output<TSchema>>({ resolver: zodResolver(schema), defaultValues });
  const refuse: Refuse = (failure, fallback) => {
    const message = serverMessageOr(failure, fallback);
    form.setError(fieldOf?.(message) ?? 'root.server', { message });
    return message;
  };
  return (
    <FormProvider {...form}>
      <Pending.Provider value={pending}>
        <form
          {...props}
          noValidate
          aria-busy={pending || undefined}
          onSubmit={(event) => {
            if (precheck?.(form.getValues()) === false) return event.preventDefault();
            void form.handleSubmit((values) => onSubmit(values, refuse, form), onInvalid)(event);
          }}
        >
          {children(form)}
        </form>
      </Pending.Provider>
    </FormProvider>
  );
}

/** The server's refusal that names no field, announced. */
export function FormError() {
  const message = useFormState({ name: 'root.server' }).errors.root?.server?.message;
  if (!message) return null;
  return (
    <p role="alert" className="text-sm font-medium text-destructive">
      {message}
    </p>
  );
}

/** The form's submit button: disabled, and saying so (`pending`, e.g. "Creating..."), while the request runs. */
export function SubmitButton({
  pending: pendingLabel,
  icon,
  className,
  disabled = false,
  children,
}: {
  pending: string;
  /** Stays while the words change, so the button keeps its look. */
  icon?: ReactNode;
  className?: string;
  /** Nothing to send yet: a disabled submit button also keeps Enter from sending (HTML's implicit submission). */
  disabled?: boolean;
  children: ReactNode;
}) {
  const pending = useContext(Pending);
  return (
    <Button type="submit" disabled={pending || disabled} className={className}>
      {icon}
      {pending ? pendingLabel : children}
    </Button>
  );
}
