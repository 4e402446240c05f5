import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { ForgotPasswordBody } from '@contracts/auth';
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

/** 'Forgot your password' link + modal asking for the account's e-mail (part 1, sections 2.3, 5, 8). */
export function ForgotPasswordDialog() {
  const [open, setOpen] = useState(false);
  const mutation = useForgotPasswordMutation();
  const form = useForm<ForgotPasswordBody>({ resolver: zodResolver(ForgotPasswordBody), defaultValues: { email: '' } });

  function onOpenChange(next: boolean) {
    setOpen(next);
    if (!next) form.reset();
  }

  const submit = form.handleSubmit(({ email }) =>
    mutation.mutate(email, {
      onSuccess: ({ message }) => {
        toast({ title: 'Check your email', description: message });
        onOpenChange(false);
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
    }),
  );

  function onSubmit(event: React.FormEvent) {
    // A blank address gets the spec's toast rather than an inline schema message.
    if (!form.getValues('email').trim()) {
      event.preventDefault();
      toast({ title: 'Email required', description: 'Please enter your email address', variant: 'destructive' });
      return;
    }
    void submit(event);
  }

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
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
        <form noValidate onSubmit={onSubmit} className="space-y-4">
          <FormField id="forgot-email" label="Email" error={form.formState.errors.email?.message}>
            <Input type="email" autoComplete="email" placeholder="you@example.com" {...form.register('email')} />
          </FormField>
          <DialogFooter>
            <DialogClose asChild>
              <Button variant="outline">Cancel</Button>
            </DialogClose>
            <Button type="submit" disabled={mutation.isPending}>
              {mutation.isPending ? 'Sending...' : 'Send Reset Link'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
