import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { BillingPriceId } from '@contracts/billing';
import { RegisterForm } from '@contracts/auth';
import { Form, SubmitButton } from '../../components/form';
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
  const signUp = useRegisterMutation();
  // /pricing's Subscribe sends a visitor here with the price they chose: carried on, never charged here.
  const [params] = useSearchParams();
  const chosenPrice = BillingPriceId.safeParse(params.get('plan')).data;

  // Registration signs the user in, which turns this route into the dashboard; having the
  // confirmation page's code ready makes the move there immediate instead of flashing the dashboard.
  useEffect(() => {
    void import('./email-confirmation-page');
  }, []);

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
      <Form
        schema={RegisterForm}
        defaultValues={{ username: '', email: '', password: '', confirmPassword: '', couponCode: '' }}
        pending={signUp.isPending}
        className="space-y-4"
        data-testid="register-form"
        aria-label="Create account"
        onSubmit={(values) =>
          signUp.mutate(
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
          )
        }
      >
        {({ register, formState: { errors } }) => (
          <>
            <FormField id="register-username" label="Username" error={errors.username?.message}>
              <Input autoComplete="username" autoCapitalize="none" spellCheck={false} {...register('username')} />
            </FormField>
            <FormField id="register-email" label="Email" error={errors.email?.message}>
              <Input type="email" autoComplete="email" placeholder="you@example.com" {...register('email')} />
            </FormField>
            <FormField
              id="register-password"
              label="Password"
              error={errors.password?.message}
              hint="At least 8 characters."
            >
              <PasswordInput autoComplete="new-password" {...register('password')} />
            </FormField>
            <FormField id="register-confirm-password" label="Confirm Password" error={errors.confirmPassword?.message}>
              <PasswordInput autoComplete="new-password" {...register('confirmPassword')} />
            </FormField>
            <FormField id="register-coupon" label="Coupon Code (optional)" error={errors.couponCode?.message}>
              <Input
                autoComplete="off"
                autoCapitalize="characters"
                placeholder="e.g. WELCOME20"
                {...register('couponCode')}
              />
            </FormField>
            <SubmitButton pending="Creating account..." className="w-full">
              Create Account
            </SubmitButton>
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
          </>
        )}
      </Form>
    </AuthLayout>
  );
}
