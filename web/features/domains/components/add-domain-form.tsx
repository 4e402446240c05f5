import { useState, type FormEvent } from 'react';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { FormField } from '../../../components/ui/form-field';
import { Input } from '../../../components/ui/input';
import { toast } from '../../../components/ui/use-toast';
import { serverMessageOr } from '../../../lib/api-client';
import { unlessUnauthorized } from '../../../lib/query-client';
import { useCreateDomainMutation } from '../api';

/** Part 2, section 5: the input is trimmed and lower-cased before it is sent. */
export function normalizeDomainInput(value: string): string {
  return value.trim().toLowerCase();
}

/**
 * The Add Domain form (part 2, section 2). The parent owns whether it is shown; closing it (Cancel,
 * Escape, success) unmounts it, which clears the input.
 */
export function AddDomainForm({ onClose }: { onClose: () => void }) {
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | undefined>(undefined);
  const create = useCreateDomainMutation();
  const domain = normalizeDomainInput(value);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!domain || create.isPending) return;
    create.mutate(domain, {
      onSuccess: (added) => {
        toast({ title: 'Domain Added', description: `${added.domain} was added. Publish the DNS records on its card, then click Verify DNS.` });
        setValue('');
        onClose();
      },
      onError: unlessUnauthorized((failure) => {
        const message = serverMessageOr(failure, 'Please check the domain name and try again.');
        setError(message);
        toast({ title: 'Failed to add domain', description: message, variant: 'destructive' });
      }),
    });
  }

  function cancel() {
    setValue('');
    setError(undefined);
    onClose();
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
          data-testid="add-domain-form"
          aria-label="Add Domain"
          onSubmit={submit}
          onKeyDown={(event) => {
            if (event.key === 'Escape') cancel();
          }}
          className="space-y-4"
          noValidate
        >
          <FormField id="add-domain-input" label="Domain name" error={error} hint="For example mail.example.com or example.com">
            <Input
              value={value}
              onChange={(event) => {
                setValue(event.target.value);
                setError(undefined);
              }}
              placeholder="example.com"
              autoComplete="off"
              autoCapitalize="none"
              spellCheck={false}
              autoFocus
            />
          </FormField>
          <div className="flex flex-wrap gap-2">
            <Button type="submit" disabled={!domain || create.isPending}>
              {create.isPending ? 'Adding...' : 'Add Domain'}
            </Button>
            <Button variant="outline" onClick={cancel}>
              Cancel
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
