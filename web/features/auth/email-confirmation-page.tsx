import { CircleCheck, MailCheck } from 'lucide-react';
import { Link, useSearchParams } from 'react-router';
import { AUTH_MESSAGES } from '@contracts/auth';
import { BillingPriceId, PLAN_OF_PRICE } from '@contracts/billing';
import { PLAN_NAMES } from '@contracts/plans';
import { Button } from '../../components/ui/button';
import { toast } from '../../components/ui/use-toast';
import { ApiError } from '../../lib/api-client';
import { PATHS } from '../../lib/paths';
import { useResendVerificationMutation } from './api';
import { AuthLayout } from './components/auth-layout';

/**
 * After registration: /email-confirmation?email={email}&sent=1|0 (sent = the server's emailSent flag),
 * and &plan={price} when the visitor came from a plan's Subscribe button: the way on to that plan
 * comes first, on /pricing, which asks them to confirm it there.
 */
export default function EmailConfirmationPage() {
  const [params] = useSearchParams();
  const email = params.get('email') ?? '';
  // Without the flag we cannot know a mail went out; asking to check the inbox is the safe reading.
  const emailSent = params.get('sent') !== '0';
  const chosenPrice = BillingPriceId.safeParse(params.get('plan')).data;
  const resend = useResendVerificationMutation();

  function onResend() {
    resend.mutate(email, {
      onSuccess: ({ message }) => toast({ title: 'Verification email sent', description: message }),
      onError: (error) =>
        toast({
          title: 'Failed to Resend',
          description:
            error instanceof ApiError
              ? error.serverMessage || 'Please try again later.'
              : 'Network Error: Please check your connection and try again.',
          variant: 'destructive',
        }),
    });
  }

  return (
    <AuthLayout
      icon={
        emailSent ? (
          <MailCheck className="size-12 text-primary" aria-hidden="true" />
        ) : (
          <CircleCheck className="size-12 text-success" aria-hidden="true" />
        )
      }
      title={emailSent ? 'Check your email' : 'Account created'}
      description={emailSent ? AUTH_MESSAGES.registeredEmailSent : AUTH_MESSAGES.registeredVerified}
    >
      <div className="space-y-4 text-center">
        {emailSent && email && (
          <p className="text-sm text-muted-foreground">
            We sent a verification link to <span className="font-medium text-foreground">{email}</span>.
          </p>
        )}
        {chosenPrice && (
          <Button asChild className="w-full">
            <Link to={`${PATHS.pricing}?${new URLSearchParams({ plan: chosenPrice }).toString()}`}>
              Continue to the {PLAN_NAMES[PLAN_OF_PRICE[chosenPrice]]} plan
            </Link>
          </Button>
        )}
        <Button asChild className="w-full" variant={chosenPrice ? 'outline' : 'default'}>
          <Link to={PATHS.dashboard}>Go to Dashboard</Link>
        </Button>
        {emailSent && email && (
          <Button variant="outline" className="w-full" onClick={onResend} disabled={resend.isPending}>
            {resend.isPending ? 'Sending...' : 'Resend verification email'}
          </Button>
        )}
      </div>
    </AuthLayout>
  );
}
