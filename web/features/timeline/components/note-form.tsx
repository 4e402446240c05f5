import { useId } from 'react';
import { useWatch, type UseFormReturn } from 'react-hook-form';
import { StickyNote } from 'lucide-react';
import { NOTE_TEXT_MAX } from '@contracts/timeline';
import { Form, FormError, SubmitButton } from '../../../components/form';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { toast } from '../../../components/ui/use-toast';
import { cn } from '../../../lib/utils';
import { useCreateNoteMutation } from '../api';
import { localDateTimeNow, NoteFields, type NoteFieldsInput, type NoteFieldsOutput } from '../note-fields';

const TEXTAREA =
  'flex w-full rounded-md border border-input bg-background px-3 py-2 text-sm placeholder:text-muted-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 aria-invalid:border-destructive';

/** Adds the user's own note ("switched ESP", "new campaign") to the timeline, now or at a past time. */
export function NoteForm({ domainId }: { domainId: number }) {
  const create = useCreateNoteMutation(domainId);
  return (
    <Form
      schema={NoteFields}
      defaultValues={{ text: '', when: '' }}
      pending={create.isPending}
      className="space-y-3"
      data-testid="note-form"
      aria-label="Add a note"
      onSubmit={({ text, when }, refuse, form) =>
        create.mutate(
          { text, ...(when ? { at: when } : {}) },
          {
            onSuccess: () => {
              toast({ title: 'Note added', description: text });
              form.reset({ text: '', when: '' });
            },
            onError: (failure) => refuse(failure, 'Could not add the note. Please try again.'),
          },
        )
      }
    >
      {(form) => <NoteFieldset form={form} />}
    </Form>
  );
}

function NoteFieldset({ form }: { form: UseFormReturn<NoteFieldsInput, unknown, NoteFieldsOutput> }) {
  const { errors } = form.formState;
  const length = useWatch({ control: form.control, name: 'text' }).length;
  const textId = useId();
  const whenId = useId();
  const textErrorId = useId();
  const whenErrorId = useId();
  const whenHintId = useId();
  const clearServerError = () => form.clearErrors('root.server');
  const textError = errors.text?.message;
  const whenError = errors.when?.message;
  return (
    <>
      <div className="space-y-2">
        <div className="flex items-baseline justify-between gap-2">
          <Label htmlFor={textId}>Note</Label>
          <span
            className={cn('text-xs', length > NOTE_TEXT_MAX ? 'text-destructive' : 'text-muted-foreground')}
            aria-live="polite"
          >
            {length}/{NOTE_TEXT_MAX}
          </span>
        </div>
        <textarea
          id={textId}
          rows={2}
          placeholder="Switched ESP, new campaign, new list..."
          {...form.register('text', { onChange: clearServerError })}
          aria-invalid={textError ? true : undefined}
          aria-describedby={textError ? textErrorId : undefined}
          className={TEXTAREA}
        />
        {textError && (
          <p id={textErrorId} className="text-sm font-medium text-destructive">
            {textError}
          </p>
        )}
      </div>
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
        <div className="flex-1 space-y-2">
          <Label htmlFor={whenId}>When (optional)</Label>
          <Input
            id={whenId}
            type="datetime-local"
            max={localDateTimeNow()}
            {...form.register('when', { onChange: clearServerError })}
            aria-invalid={whenError ? true : undefined}
            aria-describedby={[whenHintId, whenError ? whenErrorId : null].filter(Boolean).join(' ')}
          />
          <p id={whenHintId} className="text-xs text-muted-foreground">
            Leave empty for now. Your local time.
          </p>
          {whenError && (
            <p id={whenErrorId} className="text-sm font-medium text-destructive">
              {whenError}
            </p>
          )}
        </div>
        <SubmitButton pending="Adding..." icon={<StickyNote aria-hidden="true" />} className="sm:mb-6">
          Add Note
        </SubmitButton>
      </div>
      <FormError />
    </>
  );
}
