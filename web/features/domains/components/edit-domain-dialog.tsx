import { useId } from 'react';
import { useWatch, type FieldError, type UseFormReturn } from 'react-hook-form';
import { X } from 'lucide-react';
import { z } from 'zod';
import { UpdateDomainBody, type Domain } from '@contracts/domains';
import { Form, SubmitButton } from '../../../components/form';
import { Button } from '../../../components/ui/button';
import { DialogFooter, ModalDialog } from '../../../components/ui/dialog';
import { Label } from '../../../components/ui/label';
import { toast } from '../../../components/ui/use-toast';
import { useUpdateDomainMutation } from '../api';
import { parseSelectors } from '../selectors';
import type { DomainDialogProps } from './domain-dialog';

const TEXTAREA =
  'flex w-full rounded-md border border-input bg-background px-3 py-2 text-sm placeholder:text-muted-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 aria-invalid:border-destructive';

/**
 * The two text areas as typed, checked by the contract's own rules (UpdateDomainBody) for what they
 * become: the selectors parsed from the text, the notes trimmed (empty means none). An obvious slip
 * is explained without a round trip.
 */
const EditDomainFields = z.object({
  dkimSelectors: z.string().transform(parseSelectors).pipe(UpdateDomainBody.shape.dkimSelectors.unwrap()),
  notes: z
    .string()
    .transform((text) => text.trim() || null)
    .pipe(UpdateDomainBody.shape.notes.unwrap()),
});

/** A selector's own rule files its message under the selector's index in the list. */
function selectorsMessage(error: FieldError | undefined): string | undefined {
  if (!error) return undefined;
  return (
    error.message ?? (Object.values(error) as Array<FieldError | undefined>).find((item) => item?.message)?.message
  );
}

function EditDomainForm({ domain, onDone }: { domain: Domain; onDone: () => void }) {
  const update = useUpdateDomainMutation();
  return (
    <Form
      schema={EditDomainFields}
      defaultValues={{ dkimSelectors: domain.dkimSelectors.join(', '), notes: domain.notes ?? '' }}
      pending={update.isPending}
      className="space-y-4"
      data-testid="edit-domain-form"
      onSubmit={(body, refuse) =>
        update.mutate(
          { id: domain.id, ...body },
          {
            onSuccess: (saved) => {
              const selectorsChanged = saved.dkimSelectors.join(',') !== domain.dkimSelectors.join(',');
              toast({
                title: 'Domain Updated',
                description: selectorsChanged
                  ? `Changes to ${saved.domain} were saved. Click Verify DNS to check the new DKIM selectors.`
                  : `Changes to ${saved.domain} were saved.`,
              });
              onDone();
            },
            onError: (failure) => refuse(failure, 'Could not save the changes. Please try again.'),
          },
        )
      }
    >
      {(form) => <EditDomainFieldset form={form} domainName={domain.domain} onCancel={onDone} />}
    </Form>
  );
}

function EditDomainFieldset({
  form,
  domainName,
  onCancel,
}: {
  form: UseFormReturn<z.input<typeof EditDomainFields>, unknown, z.output<typeof EditDomainFields>>;
  domainName: string;
  onCancel: () => void;
}) {
  const { errors } = form.formState;
  // One message for the form, under both areas: a slip in either, else the server's refusal.
  const error = selectorsMessage(errors.dkimSelectors) ?? errors.notes?.message ?? errors.root?.server?.message;
  const selectors = parseSelectors(useWatch({ control: form.control, name: 'dkimSelectors' }));
  const selectorsId = useId();
  const notesId = useId();
  const errorId = useId();
  const hintId = useId();
  // The server's refusal is about what was sent: editing either field takes it away.
  const clearServerError = () => form.clearErrors('root.server');

  function removeSelector(selector: string) {
    form.setValue('dkimSelectors', selectors.filter((s) => s !== selector).join(', '), {
      shouldValidate: form.formState.isSubmitted,
    });
    clearServerError();
  }

  return (
    <>
      <div className="space-y-2">
        <Label htmlFor={selectorsId}>DKIM selectors</Label>
        <textarea
          id={selectorsId}
          rows={3}
          {...form.register('dkimSelectors', { onChange: clearServerError })}
          placeholder="google, s1, s2"
          spellCheck={false}
          autoCapitalize="none"
          aria-describedby={[hintId, error ? errorId : null].filter(Boolean).join(' ')}
          aria-invalid={error ? true : undefined}
          className={TEXTAREA}
        />
        <p id={hintId} className="text-xs text-muted-foreground">
          Separate selectors with commas or new lines. Each is checked at &lt;selector&gt;._domainkey.{domainName}.
        </p>
        {selectors.length > 0 && (
          <ul aria-label="Selectors to check" className="flex flex-wrap gap-2">
            {selectors.map((selector) => (
              <li
                key={selector}
                data-testid="selector-chip"
                className="inline-flex items-center gap-1 rounded-full border bg-secondary py-0.5 pl-2.5 pr-1 font-mono text-xs"
              >
                {selector}
                <button
                  type="button"
                  aria-label={`Remove selector ${selector}`}
                  onClick={() => removeSelector(selector)}
                  className="rounded-full p-0.5 hover:bg-background focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
                >
                  <X className="size-3" aria-hidden="true" />
                </button>
              </li>
            ))}
          </ul>
        )}
      </div>
      <div className="space-y-2">
        <Label htmlFor={notesId}>Notes</Label>
        <textarea
          id={notesId}
          rows={3}
          {...form.register('notes', { onChange: clearServerError })}
          placeholder="Who sends from this domain, which provider, anything to remember"
          className={TEXTAREA}
        />
      </div>
      {error && (
        <p id={errorId} role="alert" className="text-sm font-medium text-destructive">
          {error}
        </p>
      )}
      <DialogFooter>
        <Button variant="outline" onClick={onCancel}>
          Cancel
        </Button>
        <SubmitButton pending="Saving...">Save Changes</SubmitButton>
      </DialogFooter>
    </>
  );
}

/** Edit Domain (part 2, section 2; built out per DESIGN.md): the DKIM selectors to check and notes. */
export function EditDomainDialog({ domain, open, onOpenChange, onCloseAutoFocus }: DomainDialogProps) {
  return (
    <ModalDialog
      open={open}
      onOpenChange={onOpenChange}
      onCloseAutoFocus={onCloseAutoFocus}
      title="Edit Domain"
      description={`Choose which DKIM selectors are checked for ${domain.domain}, and keep notes about it.`}
    >
      <EditDomainForm domain={domain} onDone={() => onOpenChange(false)} />
    </ModalDialog>
  );
}
