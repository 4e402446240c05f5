import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router';
import { LoginBody } from '@contracts/auth';
import { Form, SubmitButton } from '../../components/form';
import { FormField } from '../../components/ui/form-field';
import { Input } from '../../components/ui/input';
import { dismissToasts, toast } from '../../components/ui/use-toast';
import { ApiError } from '../../lib/api-client';
import { PATHS } from '../../lib/paths';
import { useLoginMutation } from './api';
import { AuthLayout } from './components/auth-layout';
import { ForgotPasswordDialog } from './components/forgot-password-dialog';
import { PasswordInput } from './components/password-input';
import { USER_QUERY_KEY } from '../../lib/session';

/** Part 1, section 9: the pause between a successful login and the move to the dashboard. */
const POST_LOGIN_REDIRECT_MS = 100;

/** The login screen; also shown in place of any signed-in page when nobody is signed in. */
export default function LoginPage() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const login = useLoginMutation();
  return (
    <AuthLayout
      title="Welcome back"
      description="Sign in to monitor your inbox placement across 25+ global providers."
      footer={
        <p>
          Don&apos;t have an account?{' '}
          <Link to={PATHS.pricing} className="font-medium text-primary underline-offset-4 hover:underline">
            Sign up here
          </Link>
        </p>
      }
    >
      <Form
        schema={LoginBody}
        defaultValues={{ username: '', password: '' }}
        pending={login.isPending}
        className="space-y-4"
        data-testid="login-form"
        aria-label="Sign in"
        onSubmit={(body) =>
          login.mutate(body, {
            onSuccess: () => {
              dismissToasts();
              void queryClient.invalidateQueries({ queryKey: USER_QUERY_KEY });
              setTimeout(() => void navigate(PATHS.dashboard), POST_LOGIN_REDIRECT_MS);
            },
            onError: (error) =>
              toast({
                title: 'Login Failed',
                description:
                  error instanceof ApiError
                    ? error.serverMessage || 'Invalid username or password'
                    : error.message || 'Network error occurred',
                variant: 'destructive',
              }),
          })
        }
      >
        {({ register, formState: { errors } }) => (
          <>
            <FormField id="login-username" label="Username" error={errors.username?.message}>
              <Input autoComplete="username" autoCapitalize="none" spellCheck={false} {...register('username')} />
            </FormField>
            <FormField id="login-password" label="Password" error={errors.password?.message}>
              <PasswordInput autoComplete="current-password" {...register('password')} />
            </FormField>
            <SubmitButton pending="Signing in..." className="w-full">
              Sign In
            </SubmitButton>
          </>
        )}
      </Form>
      <div className="mt-4 text-center">
        <ForgotPasswordDialog />
      </div>
    </AuthLayout>
  );
}
