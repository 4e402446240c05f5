import type { UseFormReturn } from 'react-hook-form';
import type { z } from 'zod';
import { AddIpRequest } from '@contracts/reputation';
import { Form, SubmitButton } from '../../../components/form';
import { Button } from '../../../components/ui/button';
import { DialogFooter } from '../../../components/ui/dialog';
import { FormField } from '../../../components/ui/form-field';
import { Input } from '../../../components/ui/input';
import { toast } from '../../../components/ui/use-toast';
import { useAddIpMutation } from '../api';
import { IpSharingFields } from './ip-sharing-fields';

/** The Single IP tab (part 2, sections 2 and 5): the contract's schema gives "Please enter an IP address". */
export function SingleIpForm({ onDone }: { onDone: () => void }) {
  const add = useAddIpMutation();
  return (
    <Form
      schema={AddIpRequest}
      defaultValues={{ ipAddress: '', label: '', type: 'dedicated', associatedDomains: [] }}
      pending={add.isPending}
      // Any refusal (a taken address, a full plan) is about the address the user typed.
      fieldOf={() => 'ipAddress'}
      aria-label="Add a single IP address"
      data-testid="single-ip-form"
      className="space-y-4"
      onSubmit={({ ipAddress, label, type, associatedDomains }, refuse) =>
        add.mutate(
          { ipAddress, label: label || undefined, type, associatedDomains: type === 'shared' ? associatedDomains : [] },
          {
            onSuccess: (added) => {
              toast({
                title: 'Success',
                description: `${added.ipAddress} was added. Its first blocklist check runs now.`,
              });
              onDone();
            },
            onError: (failure) =>
              toast({
                title: 'Error',
                description: refuse(failure, 'Failed to add IP address'),
                variant: 'destructive',
              }),
          },
        )
      }
    >
      {(form) => <SingleIpFields form={form} onCancel={onDone} />}
    </Form>
  );
}

function SingleIpFields({
  form,
  onCancel,
}: {
  form: UseFormReturn<z.input<typeof AddIpRequest>, unknown, z.output<typeof AddIpRequest>>;
  onCancel: () => void;
}) {
  const { errors } = form.formState;
  return (
    <>
      <FormField
        id="single-ip-address"
        label="IP address"
        error={errors.ipAddress?.message}
        hint="IPv4 or IPv6, e.g. 203.0.113.25"
      >
        <Input
          placeholder="203.0.113.25"
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          {...form.register('ipAddress')}
        />
      </FormField>
      <FormField
        id="single-ip-label"
        label="Label"
        error={errors.label?.message}
        hint="Optional, e.g. Transactional mail server"
      >
        <Input placeholder="Mail server 1" autoComplete="off" {...form.register('label')} />
      </FormField>
      <IpSharingFields idPrefix="single-ip" defaultType="dedicated" />
      <DialogFooter>
        <Button variant="outline" onClick={onCancel}>
          Cancel
        </Button>
        <SubmitButton pending="Adding...">Add IP Address</SubmitButton>
      </DialogFooter>
    </>
  );
}
