import { useEffect, useEffectEvent, useRef, type FormEvent } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { CreateDomainBody } from '@contracts/domains';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { FormField } from '../../../components/ui/form-field';
import { Input } from '../../../components/ui/input';
import { toast } from '../../../components/ui/use-toast';
import { serverMessageOr } from '../../../lib/api-client';
import { useCreateDomainMutation } from '../api';

/**
 * The Add Domain form (part 2, section 2). The parent owns whether it is shown; closing it (Cancel,
 * Escape, success) unmounts it, which clears the input. The contract's schema trims and lower-cases
 * the name before it is sent (part 2, section 5), and refuses a name the server would refuse (an IP,
 * a bad label, no public suffix) under the field, in the server's words, before any request.
 */
export function AddDomainForm({ onClose }: { onClose: () => void }) {
  const create = useCreateDomainMutation();
  const form = useForm<z.input<typeof CreateDomainBody>, unknown, z.output<typeof CreateDomainBody>>({
    resolver: zodResolver(CreateDomainBody),
    defaultValues: { domain: '' },
  });
  const empty = !useWatch({ control: form.control, name: 'domain' }).trim();
  const formRef = useRef<HTMLFormElement>(null);

  // Opening the form puts the cursor in its field.
  const { setFocus } = form;
  useEffect(() => setFocus('domain'), [setFocus]);

  // Escape closes the form while focus is anywhere in it (the field or its buttons). The form
  // element is not interactive and takes no key handler of its own, so the key is heard on the document.
  const onDocumentKeyDown = useEffectEvent((event: KeyboardEvent) => {
    if (event.key === 'Escape' && event.target instanceof Node && formRef.current?.contains(event.target)) onClose();
  });
  useEffect(() => {
    const listener = (event: KeyboardEvent) => onDocumentKeyDown(event);
    document.addEventListener('keydown', listener);
    return () => document.removeEventListener('keydown', listener);
  }, []);

  const send = form.handleSubmit(({ domain }) =>
    create.mutate(domain, {
      onSuccess: (added) => {
        toast({
          title: 'Domain Added',
          description: `${added.domain} was added. Publish the DNS records on its card, then click Verify DNS.`,
        });
        onClose();
      },
      onError: (failure) => {
        const message = serverMessageOr(failure, 'Please check the domain name and try again.');
        form.setError('domain', { message });
        toast({ title: 'Failed to add domain', description: message, variant: 'destructive' });
      },
    }),
  );

  function submit(event: FormEvent) {
    // Nothing typed yet (the button is disabled too): Enter does nothing either.
    if (empty || create.isPending) {
      event.preventDefault();
      return;
    }
    void send(event);
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2" className="text-lg">
          Add Domain
        </CardTitle>
        <CardDescription>Add a domain you send e-mail from to check its SPF, DKIM and DMARC records.</CardDescription>
      </CardHeader>
      <CardContent>
        <form
          ref={formRef}
          data-testid="add-domain-form"
          aria-label="Add Domain"
          onSubmit={submit}
          className="space-y-4"
          noValidate
        >
          <FormField
            id="add-domain-input"
            label="Domain name"
            error={form.formState.errors.domain?.message}
            hint="For example mail.example.com or example.com"
          >
            <Input
              placeholder="example.com"
              autoComplete="off"
              autoCapitalize="none"
              spellCheck={false}
              {...form.register('domain')}
            />
          </FormField>
          <div className="flex flex-wrap gap-2">
            <Button type="submit" disabled={empty || create.isPending}>
              {create.isPending ? 'Adding...' : 'Add Domain'}
            </Button>
            <Button variant="outline" onClick={onClose}>
              Cancel
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
