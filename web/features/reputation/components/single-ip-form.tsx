import { Controller, useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { AddIpRequest } from '@contracts/reputation';
import { Button } from '../../../components/ui/button';
import { FormField } from '../../../components/ui/form-field';
import { Input } from '../../../components/ui/input';
import { toast } from '../../../components/ui/use-toast';
import { serverMessageOr } from '../../../lib/api-client';
import { useAddIpMutation } from '../api';
import { AssociatedDomainsField } from './associated-domains-field';
import { IpTypeField } from './ip-type-field';

type Values = z.input<typeof AddIpRequest>;

/** The Single IP tab (part 2, sections 2 and 5): the contract's schema gives "Please enter an IP address". */
export function SingleIpForm({ onDone }: { onDone: () => void }) {
  const add = useAddIpMutation();
  const form = useForm<Values, unknown, z.output<typeof AddIpRequest>>({
    resolver: zodResolver(AddIpRequest),
    defaultValues: { ipAddress: '', label: '', type: 'dedicated', associatedDomains: [] },
  });
  const shared = useWatch({ control: form.control, name: 'type' }) === 'shared';

  const submit = form.handleSubmit(({ ipAddress, label, type, associatedDomains }) =>
    add.mutate(
      { ipAddress, label: label || undefined, type, associatedDomains: type === 'shared' ? associatedDomains : [] },
      {
        onSuccess: (added) => {
          toast({ title: 'Success', description: `${added.ipAddress} was added. Its first blocklist check runs now.` });
          onDone();
        },
        onError: (failure) => {
          const message = serverMessageOr(failure, 'Failed to add IP address');
          form.setError('ipAddress', { message });
          toast({ title: 'Error', description: message, variant: 'destructive' });
        },
      },
    ),
  );

  return (
    <form
      aria-label="Add a single IP address"
      data-testid="single-ip-form"
      className="space-y-4"
      onSubmit={(event) => void submit(event)}
      noValidate
    >
      <FormField
        id="single-ip-address"
        label="IP address"
        error={form.formState.errors.ipAddress?.message}
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
        error={form.formState.errors.label?.message}
        hint="Optional, e.g. Transactional mail server"
      >
        <Input placeholder="Mail server 1" autoComplete="off" {...form.register('label')} />
      </FormField>
      <Controller
        control={form.control}
        name="type"
        render={({ field }) => (
          <IpTypeField name="single-ip-type" value={field.value ?? 'dedicated'} onChange={field.onChange} />
        )}
      />
      <Controller
        control={form.control}
        name="associatedDomains"
        render={({ field }) => (
          <AssociatedDomainsField
            idPrefix="single-ip"
            enabled={shared}
            selected={field.value ?? []}
            onChange={field.onChange}
          />
        )}
      />
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button variant="outline" onClick={onDone}>
          Cancel
        </Button>
        <Button type="submit" disabled={add.isPending}>
          {add.isPending ? 'Adding...' : 'Add IP Address'}
        </Button>
      </div>
    </form>
  );
}
