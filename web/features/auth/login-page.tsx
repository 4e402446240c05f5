import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router';
import { LoginBody } from '@contracts/auth';
import { Button } from '../../components/ui/button';
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
  const form = useForm<LoginBody>({ resolver: zodResolver(LoginBody), defaultValues: { username: '', password: '' } });
  const { errors } = form.formState;

  const onSubmit = form.handleSubmit((body) =>
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
    }),
  );

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
      <form noValidate onSubmit={onSubmit} className="space-y-4" data-testid="login-form" aria-label="Sign in">
        <FormField id="login-username" label="Username" error={errors.username?.message}>
          <Input autoComplete="username" autoCapitalize="none" spellCheck={false} {...form.register('username')} />
        </FormField>
        <FormField id="login-password" label="Password" error={errors.password?.message}>
          <PasswordInput autoComplete="current-password" {...form.register('password')} />
        </FormField>
        <Button type="submit" className="w-full" disabled={login.isPending}>
          {login.isPending ? 'Signing in...' : 'Sign In'}
        </Button>
      </form>
      <div className="mt-4 text-center">
        <ForgotPasswordDialog />
      </div>
    </AuthLayout>
  );
}
