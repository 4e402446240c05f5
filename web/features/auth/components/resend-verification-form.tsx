import type { FormEvent } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { ResendVerificationBody } from '@contracts/auth';
import { Button } from '../../../components/ui/button';
import { FormField } from '../../../components/ui/form-field';
import { Input } from '../../../components/ui/input';
import { toast } from '../../../components/ui/use-toast';
import { ApiError } from '../../../lib/api-client';
import { useResendVerificationMutation } from '../api';

/** Asks for a fresh verification e-mail (part 1, sections 5 and 8, variant B). */
export function ResendVerificationForm() {
  const resend = useResendVerificationMutation();
  const form = useForm<z.infer<typeof ResendVerificationBody>>({
    resolver: zodResolver(ResendVerificationBody),
    defaultValues: { email: '' },
  });

  const send = form.handleSubmit(({ email }) =>
    resend.mutate(email, {
      onSuccess: ({ message }) => toast({ title: 'Verification Email Sent', description: message }),
      onError: (err) =>
        err instanceof ApiError
          ? toast({ title: 'Failed to Resend', description: err.serverMessage, variant: 'destructive' })
          : toast({
              title: 'Network Error',
              description: 'Please check your connection and try again.',
              variant: 'destructive',
            }),
    }),
  );

  function onSubmit(event: FormEvent) {
    // The spec answers a blank address with a toast, not a field message.
    if (!form.getValues('email').trim()) {
      event.preventDefault();
      toast({ title: 'Email Required', description: 'Please enter your email address', variant: 'destructive' });
      return;
    }
    void send(event);
  }

  return (
    <form noValidate onSubmit={onSubmit} className="space-y-3" aria-label="Resend verification email">
      <FormField id="resend-email" label="Email" error={form.formState.errors.email?.message}>
        <Input type="email" autoComplete="email" placeholder="you@example.com" {...form.register('email')} />
      </FormField>
      <Button type="submit" className="w-full" disabled={resend.isPending}>
        {resend.isPending ? 'Sending...' : 'Resend Verification Email'}
      </Button>
    </form>
  );
}
