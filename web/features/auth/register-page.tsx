import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { BillingPriceId } from '@contracts/billing';
import { RegisterForm } from '@contracts/auth';
import { Button } from '../../components/ui/button';
import { FormField } from '../../components/ui/form-field';
import { Input } from '../../components/ui/input';
import { toast } from '../../components/ui/use-toast';
import { ApiError } from '../../lib/api-client';
import { emailConfirmationPath, PATHS } from '../../lib/paths';
import { useRegisterMutation } from './api';
import { AuthLayout } from './components/auth-layout';
import { PasswordInput } from './components/password-input';
import { USER_QUERY_KEY } from '../../lib/session';

const linkClass = 'font-medium text-primary underline-offset-4 hover:underline';

export default function RegisterPage() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const register = useRegisterMutation();
  // /pricing's Subscribe sends a visitor here with the price they chose: carried on, never charged here.
  const [params] = useSearchParams();
  const chosenPrice = BillingPriceId.safeParse(params.get('plan')).data;
  const form = useForm<z.input<typeof RegisterForm>, unknown, RegisterForm>({
    resolver: zodResolver(RegisterForm),
    defaultValues: { username: '', email: '', password: '', confirmPassword: '', couponCode: '' },
  });
  const { errors } = form.formState;

  // Registration signs the user in, which turns this route into the dashboard; having the
  // confirmation page's code ready makes the move there immediate instead of flashing the dashboard.
  useEffect(() => {
    void import('./email-confirmation-page');
  }, []);

  const onSubmit = form.handleSubmit((values) =>
    register.mutate(
      { ...values, couponCode: values.couponCode || undefined },
      {
        onSuccess: async ({ emailSent }) => {
          await navigate(emailConfirmationPath(values.email, emailSent, chosenPrice));
          void queryClient.invalidateQueries({ queryKey: USER_QUERY_KEY });
        },
        onError: (error) =>
          toast({
            title: 'Registration Failed',
            description:
              error instanceof ApiError
                ? error.serverMessage || 'Failed to create account'
                : 'An unexpected error occurred. Please try again.',
            variant: 'destructive',
          }),
      },
    ),
  );

  return (
    <AuthLayout
      title="Create your account"
      description="Start monitoring your email deliverability for free."
      footer={
        <p>
          Already have an account?{' '}
          <Link to={PATHS.login} className={linkClass}>
            Sign in
          </Link>
        </p>
      }
    >
      <form
        noValidate
        onSubmit={onSubmit}
        className="space-y-4"
        data-testid="register-form"
        aria-label="Create account"
      >
        <FormField id="register-username" label="Username" error={errors.username?.message}>
          <Input autoComplete="username" autoCapitalize="none" spellCheck={false} {...form.register('username')} />
        </FormField>
        <FormField id="register-email" label="Email" error={errors.email?.message}>
          <Input type="email" autoComplete="email" placeholder="you@example.com" {...form.register('email')} />
        </FormField>
        <FormField
          id="register-password"
          label="Password"
          error={errors.password?.message}
          hint="At least 8 characters."
        >
          <PasswordInput autoComplete="new-password" {...form.register('password')} />
        </FormField>
        <FormField id="register-confirm-password" label="Confirm Password" error={errors.confirmPassword?.message}>
          <PasswordInput autoComplete="new-password" {...form.register('confirmPassword')} />
        </FormField>
        <FormField id="register-coupon" label="Coupon Code (optional)" error={errors.couponCode?.message}>
          <Input
            autoComplete="off"
            autoCapitalize="characters"
            placeholder="e.g. WELCOME20"
            {...form.register('couponCode')}
          />
        </FormField>
        <Button type="submit" className="w-full" disabled={register.isPending}>
          {register.isPending ? 'Creating account...' : 'Create Account'}
        </Button>
        <p className="text-center text-xs text-muted-foreground">
          By creating an account you agree to our{' '}
          <Link to={PATHS.termsOfService} className={linkClass}>
            Terms of Service
          </Link>{' '}
          and{' '}
          <Link to={PATHS.privacyPolicy} className={linkClass}>
            Privacy Policy
          </Link>
          .
        </p>
      </form>
    </AuthLayout>
  );
}
