import { useState } from 'react';
import { ForgotPasswordBody } from '@contracts/auth';
import { Form, SubmitButton } from '../../../components/form';
import { Button } from '../../../components/ui/button';
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '../../../components/ui/dialog';
import { FormField } from '../../../components/ui/form-field';
import { Input } from '../../../components/ui/input';
import { toast } from '../../../components/ui/use-toast';
import { ApiError } from '../../../lib/api-client';
import { useForgotPasswordMutation } from '../api';

/**
 * 'Forgot your password' link + modal asking for the account's e-mail (part 1, sections 2.3, 5, 8).
 * Closing the modal unmounts its form, so it opens empty again.
 */
export function ForgotPasswordDialog() {
  const [open, setOpen] = useState(false);
  const mutation = useForgotPasswordMutation();

  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button variant="link" className="h-auto p-0 text-sm">
          Forgot your password?
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Reset your password</DialogTitle>
          <DialogDescription>
            Enter the email address of your account and we will send you a reset link.
          </DialogDescription>
        </DialogHeader>
        <Form
          schema={ForgotPasswordBody}
          defaultValues={{ email: '' }}
          pending={mutation.isPending}
          className="space-y-4"
          // A blank address gets the spec's toast rather than an inline schema message.
          precheck={({ email }) => {
            if (email.trim()) return true;
            toast({ title: 'Email required', description: 'Please enter your email address', variant: 'destructive' });
            return false;
          }}
          onSubmit={({ email }) =>
            mutation.mutate(email, {
              onSuccess: ({ message }) => {
                toast({ title: 'Check your email', description: message });
                setOpen(false);
              },
              onError: (error) =>
                toast({
                  title: 'Reset failed',
                  description:
                    error instanceof ApiError
                      ? error.serverMessage || 'Unable to send reset email'
                      : 'An unexpected error occurred',
                  variant: 'destructive',
                }),
            })
          }
        >
          {({ register, formState: { errors } }) => (
            <>
              <FormField id="forgot-email" label="Email" error={errors.email?.message}>
                <Input type="email" autoComplete="email" placeholder="you@example.com" {...register('email')} />
              </FormField>
              <DialogFooter>
                <DialogClose asChild>
                  <Button variant="outline">Cancel</Button>
                </DialogClose>
                <SubmitButton pending="Sending...">Send Reset Link</SubmitButton>
              </DialogFooter>
            </>
          )}
        </Form>
      </DialogContent>
    </Dialog>
  );
}
