import { useWatch, type UseFormReturn } from 'react-hook-form';
import type { z } from 'zod';
import { BULK_IMPORT_MAX_ADDRESSES, BulkImportRequest } from '@contracts/reputation';
import { Form, SubmitButton } from '../../../components/form';
import { Button } from '../../../components/ui/button';
import { DialogFooter } from '../../../components/ui/dialog';
import { FormField } from '../../../components/ui/form-field';
import { Input } from '../../../components/ui/input';
import { toast } from '../../../components/ui/use-toast';
import { formatCount } from '../../../lib/format';
import { useBulkImportMutation } from '../api';
import { cidrBlockSize } from '../cidr';
import { IpSharingFields } from './ip-sharing-fields';

/** What the block will add, said while the user types: the server refuses more than BULK_IMPORT_MAX_ADDRESSES. */
function BlockSize({ cidrBlock }: { cidrBlock: string }) {
  const size = cidrBlockSize(cidrBlock);
  if (size === null) return null;
  const count = size.toLocaleString('en-US');
  const tooMany = size > BigInt(BULK_IMPORT_MAX_ADDRESSES);
  return (
    <p
      data-testid="cidr-count"
      className={tooMany ? 'text-sm font-medium text-destructive' : 'text-sm text-muted-foreground'}
      aria-live="polite"
    >
      {tooMany
        ? `This block holds ${count} IP addresses; one import adds at most ${formatCount(BULK_IMPORT_MAX_ADDRESSES)}.`
        : `This block adds ${count} IP ${size === 1n ? 'address' : 'addresses'}.`}
    </p>
  );
}

/** The Bulk Import tab (part 2, sections 2 and 5): shared by default, labels '{label} #1', '#2'... */
export function BulkImportForm({ onDone }: { onDone: () => void }) {
  const bulk = useBulkImportMutation();
  return (
    <Form
      schema={BulkImportRequest}
      defaultValues={{ cidrBlock: '', label: '', type: 'shared', associatedDomains: [] }}
      pending={bulk.isPending}
      // Any refusal is about the block typed. A 403 (the plan changed since the page loaded) carries the
      // spec's 'Requires Professional plan'.
      fieldOf={() => 'cidrBlock'}
      aria-label="Import a CIDR block"
      data-testid="bulk-import-form"
      className="space-y-4"
      onSubmit={({ cidrBlock, label, type, associatedDomains }, refuse) =>
        bulk.mutate(
          { cidrBlock, label: label || undefined, type, associatedDomains: type === 'shared' ? associatedDomains : [] },
          {
            onSuccess: ({ imported }) => {
              toast({
                title: 'Success',
                description: `Imported ${formatCount(imported)} IP ${imported === 1 ? 'address' : 'addresses'} from ${cidrBlock}.`,
              });
              onDone();
            },
            onError: (failure) =>
              toast({
                title: 'Error',
                description: refuse(failure, 'Failed to import IP addresses'),
                variant: 'destructive',
              }),
          },
        )
      }
    >
      {(form) => <BulkImportFields form={form} onCancel={onDone} />}
    </Form>
  );
}

function BulkImportFields({
  form,
  onCancel,
}: {
  form: UseFormReturn<z.input<typeof BulkImportRequest>, unknown, z.output<typeof BulkImportRequest>>;
  onCancel: () => void;
}) {
  const cidrBlock = useWatch({ control: form.control, name: 'cidrBlock' });
  const label = useWatch({ control: form.control, name: 'label' })?.trim() || 'Label';
  const { errors } = form.formState;
  return (
    <>
      <div className="space-y-2">
        <FormField
          id="bulk-cidr"
          label="CIDR block"
          error={errors.cidrBlock?.message}
          hint="e.g. 203.0.113.0/24 (256 IPs) or 203.0.113.0/25 (128 IPs)"
        >
          <Input
            placeholder="203.0.113.0/24"
            autoComplete="off"
            autoCapitalize="none"
            spellCheck={false}
            {...form.register('cidrBlock')}
          />
        </FormField>
        <BlockSize cidrBlock={cidrBlock} />
      </div>
      <FormField
        id="bulk-label"
        label="Label template"
        error={errors.label?.message}
        hint={`Each address is labelled "${label} #1", "${label} #2" and so on.`}
      >
        <Input placeholder="Pool A" autoComplete="off" {...form.register('label')} />
      </FormField>
      <IpSharingFields idPrefix="bulk" defaultType="shared" />
      <DialogFooter>
        <Button variant="outline" onClick={onCancel}>
          Cancel
        </Button>
        <SubmitButton pending="Importing...">Import IP Addresses</SubmitButton>
      </DialogFooter>
    </>
  );
}
