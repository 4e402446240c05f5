import { useState } from 'react';
import { ResendVerificationBody } from '../../../../contracts/auth';
import { Button } from '../../../components/ui/button';
import { FormField } from '../../../components/ui/form-field';
import { Input } from '../../../components/ui/input';
import { toast } from '../../../components/ui/use-toast';
import { ApiError } from '../../../lib/api-client';
import { useResendVerificationMutation } from '../api';

/** Asks for a fresh verification e-mail (part 1, sections 5 and 8, variant B). */
export function ResendVerificationForm() {
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | undefined>();
  const resend = useResendVerificationMutation();

  function onSubmit(event: React.FormEvent) {
    event.preventDefault();
    if (!email.trim()) {
      toast({ title: 'Email Required', description: 'Please enter your email address', variant: 'destructive' });
      return;
    }
    const parsed = ResendVerificationBody.safeParse({ email });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message);
      return;
    }
    setError(undefined);
    resend.mutate(parsed.data.email, {
      onSuccess: ({ message }) => toast({ title: 'Verification Email Sent', description: message }),
      onError: (err) =>
        err instanceof ApiError
          ? toast({ title: 'Failed to Resend', description: err.serverMessage, variant: 'destructive' })
          : toast({ title: 'Network Error', description: 'Please check your connection and try again.', variant: 'destructive' }),
    });
  }

  return (
    <form noValidate onSubmit={onSubmit} className="space-y-3" aria-label="Resend verification email">
      <FormField id="resend-email" label="Email" error={error}>
        <Input
          type="email"
          autoComplete="email"
          placeholder="you@example.com"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
        />
      </FormField>
      <Button type="submit" className="w-full" disabled={resend.isPending}>
        {resend.isPending ? 'Sending...' : 'Resend Verification Email'}
      </Button>
    </form>
  );
}
