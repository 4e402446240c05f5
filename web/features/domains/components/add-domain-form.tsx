import { useEffect, useEffectEvent, useRef } from 'react';
import { useWatch, type UseFormReturn } from 'react-hook-form';
import type { z } from 'zod';
import { CreateDomainBody } from '@contracts/domains';
import { Form, SubmitButton } from '../../../components/form';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { FormField } from '../../../components/ui/form-field';
import { Input } from '../../../components/ui/input';
import { toast } from '../../../components/ui/use-toast';
import { useCreateDomainMutation } from '../api';

/**
 * The Add Domain form (part 2, section 2). The parent owns whether it is shown; closing it (Cancel,
 * Escape, success) unmounts it, which clears the input. The contract's schema trims and lower-cases
 * the name before it is sent (part 2, section 5), and refuses a name the server would refuse (an IP,
 * a bad label, no public suffix) under the field, in the server's words, before any request.
 */
export function AddDomainForm({ onClose }: { onClose: () => void }) {
  const create = useCreateDomainMutation();
  const formRef = useRef<HTMLFormElement>(null);

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

  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2" className="text-lg">
          Add Domain
        </CardTitle>
        <CardDescription>Add a domain you send e-mail from to check its SPF, DKIM and DMARC records.</CardDescription>
      </CardHeader>
      <CardContent>
        <Form
          schema={CreateDomainBody}
          defaultValues={{ domain: '' }}
          pending={create.isPending}
          // Any refusal (a taken name, a full plan) is about the name typed.
          fieldOf={() => 'domain'}
          ref={formRef}
          data-testid="add-domain-form"
          aria-label="Add Domain"
          className="space-y-4"
          onSubmit={({ domain }, refuse) =>
            create.mutate(domain, {
              onSuccess: (added) => {
                toast({
                  title: 'Domain Added',
                  description: `${added.domain} was added. Publish the DNS records on its card, then click Verify DNS.`,
                });
                onClose();
              },
              onError: (failure) =>
                toast({
                  title: 'Failed to add domain',
                  description: refuse(failure, 'Please check the domain name and try again.'),
                  variant: 'destructive',
                }),
            })
          }
        >
          {(form) => <AddDomainFields form={form} onCancel={onClose} />}
        </Form>
      </CardContent>
    </Card>
  );
}

function AddDomainFields({
  form,
  onCancel,
}: {
  form: UseFormReturn<z.input<typeof CreateDomainBody>, unknown, z.output<typeof CreateDomainBody>>;
  onCancel: () => void;
}) {
  const empty = !useWatch({ control: form.control, name: 'domain' }).trim();

  // Opening the form puts the cursor in its field.
  const { setFocus } = form;
  useEffect(() => setFocus('domain'), [setFocus]);

  return (
    <>
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
        <SubmitButton pending="Adding..." disabled={empty}>
          Add Domain
        </SubmitButton>
        <Button variant="outline" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </>
  );
}
