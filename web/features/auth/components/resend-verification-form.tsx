import { ResendVerificationBody } from '@contracts/auth';
import { Form, SubmitButton } from '../../../components/form';
import { FormField } from '../../../components/ui/form-field';
import { Input } from '../../../components/ui/input';
import { toast } from '../../../components/ui/use-toast';
import { ApiError } from '../../../lib/api-client';
import { useResendVerificationMutation } from '../api';

/** Asks for a fresh verification e-mail (part 1, sections 5 and 8, variant B). */
export function ResendVerificationForm() {
  const resend = useResendVerificationMutation();
  return (
    <Form
      schema={ResendVerificationBody}
      defaultValues={{ email: '' }}
      pending={resend.isPending}
      className="space-y-3"
      aria-label="Resend verification email"
      // The spec answers a blank address with a toast, not a field message.
      precheck={({ email }) => {
        if (email.trim()) return true;
        toast({ title: 'Email Required', description: 'Please enter your email address', variant: 'destructive' });
        return false;
      }}
      onSubmit={({ email }) =>
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
        })
      }
    >
      {({ register, formState: { errors } }) => (
        <>
          <FormField id="resend-email" label="Email" error={errors.email?.message}>
            <Input type="email" autoComplete="email" placeholder="you@example.com" {...register('email')} />
          </FormField>
          <SubmitButton pending="Sending..." className="w-full">
            Resend Verification Email
          </SubmitButton>
        </>
      )}
    </Form>
  );
}
