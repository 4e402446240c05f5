import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { CircleCheck, CircleX } from 'lucide-react';
import { Link, useSearchParams } from 'react-router';
import { AUTH_MESSAGES, ResetPasswordForm, type PasswordSetResponse } from '@contracts/auth';
import { Form, SubmitButton } from '../../components/form';
import { QueryState } from '../../components/query-state';
import { Button } from '../../components/ui/button';
import { FormField } from '../../components/ui/form-field';
import { Spinner } from '../../components/ui/spinner';
import { toast } from '../../components/ui/use-toast';
import { ApiError } from '../../lib/api-client';
import { PATHS } from '../../lib/paths';
import { resetTokenQueryOptions, useResetPasswordMutation } from './api';
import { AuthLayout } from './components/auth-layout';
import { PasswordInput } from './components/password-input';

/** /reset-password?token=...: validating, invalid (or expired), the new-password form, done. */
export default function ResetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const check = useQuery({ ...resetTokenQueryOptions(token), enabled: token !== '' });
  const [done, setDone] = useState<PasswordSetResponse | null>(null);

  if (!token) return <InvalidLink title="Invalid reset link" description="This password reset link is invalid" />;
  if (done !== null) {
    return (
      <AuthLayout
        icon={<CircleCheck className="size-12 text-success" aria-hidden="true" />}
        title="Password reset"
        description={done.message}
      >
        {done.apiAccessRevoked && (
          <p className="mb-4 text-center text-sm text-muted-foreground">{AUTH_MESSAGES.apiAccessRevoked}</p>
        )}
        <Button asChild className="w-full">
          <Link to={PATHS.login}>Continue to Login</Link>
        </Button>
      </AuthLayout>
    );
  }
  return (
    <QueryState
      query={check}
      loading={
        <AuthLayout title="Validating reset link" description="Checking that your reset link is still valid...">
          <div className="flex justify-center">
            <Spinner label="Validating reset link" />
          </div>
        </AuthLayout>
      }
      failed={() => <InvalidLink title="Reset link expired" description={AUTH_MESSAGES.invalidResetLink} />}
    >
      {() => <NewPasswordForm token={token} onDone={setDone} />}
    </QueryState>
  );
}

function InvalidLink({ title, description }: { title: string; description: string }) {
  return (
    <AuthLayout
      icon={<CircleX className="size-12 text-destructive" aria-hidden="true" />}
      title={title}
      description={description}
    >
      <p className="mb-4 text-center text-sm text-muted-foreground">
        Reset links are valid for 1 hour. You can ask for a new one from the login page.
      </p>
      <Button asChild className="w-full">
        <Link to={PATHS.login}>Back to Login</Link>
      </Button>
    </AuthLayout>
  );
}

function NewPasswordForm({ token, onDone }: { token: string; onDone: (done: PasswordSetResponse) => void }) {
  const reset = useResetPasswordMutation();
  // Whoever made the reset necessary may have used the API key or webhook token too: they go unless kept.
  const [keepApiAccess, setKeepApiAccess] = useState(false);
  return (
    <AuthLayout title="Choose a new password" description="Enter a new password for your account.">
      <Form
        schema={ResetPasswordForm}
        defaultValues={{ password: '', confirmPassword: '' }}
        pending={reset.isPending}
        className="space-y-4"
        aria-label="Reset password"
        onSubmit={({ password }) =>
          reset.mutate(
            { token, password, keepApiAccess },
            {
              onSuccess: onDone,
              onError: (error) =>
                toast({
                  title: 'Unable to reset password',
                  description: error instanceof ApiError ? error.serverMessage : undefined,
                  variant: 'destructive',
                }),
            },
          )
        }
      >
        {({ register, formState: { errors } }) => (
          <>
            <FormField
              id="reset-password"
              label="New Password"
              error={errors.password?.message}
              hint="At least 8 characters."
            >
              <PasswordInput autoComplete="new-password" {...register('password')} />
            </FormField>
            <FormField id="reset-confirm-password" label="Confirm New Password" error={errors.confirmPassword?.message}>
              <PasswordInput autoComplete="new-password" {...register('confirmPassword')} />
            </FormField>
            <label htmlFor="reset-keep-api-access" className="flex items-start gap-2 text-sm">
              <input
                id="reset-keep-api-access"
                type="checkbox"
                className="mt-0.5 size-4"
                checked={keepApiAccess}
                onChange={(e) => setKeepApiAccess(e.target.checked)}
              />
              <span>
                Keep my API key and webhook token working
                <span className="block text-muted-foreground">
                  Unchecked, they are revoked with the reset: anyone who knew your password may have copied them.
                </span>
              </span>
            </label>
            <SubmitButton pending="Resetting..." className="w-full">
              Reset Password
            </SubmitButton>
          </>
        )}
      </Form>
    </AuthLayout>
  );
}
