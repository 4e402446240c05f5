import { useCallback, useEffect, useRef, useState } from 'react';
import { Info } from 'lucide-react';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import { BILLING_MESSAGES, PLAN_OF_PRICE, PlanChoice, priceOfChoice, type BillingPriceId } from '@contracts/billing';
import { PLAN_LABELS } from '@contracts/plans';
import { QueryState } from '../../components/query-state';
import { PublicLayout } from '../../components/public-layout';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { Spinner } from '../../components/ui/spinner';
import { ApiError, serverMessageOr } from '../../lib/api-client';
import { PATHS } from '../../lib/paths';
import { useAuth } from '../../lib/session';
import { useSubscription, useUpgradeMutation } from './api';
import { CHECKOUT_MESSAGES } from './checkout-messages';
import { StripePayment } from './components/stripe-payment';
import { subscriptionPriceLabel } from './pricing-plans';

const UPGRADE_SUCCESS_PATH = `${PATHS.subscription}?upgrade=success`;

function BackToPricing({ variant = 'outline' }: { variant?: 'outline' | 'default' }) {
  return (
    <Button asChild variant={variant}>
      <Link to={PATHS.pricing}>Back to Pricing</Link>
    </Button>
  );
}

/** A subscription that could not be created: why, and Back to Pricing (part 2, section 8, "Checkout creation"). */
function CreationFailed({ message }: { message: string }) {
  return (
    <div
      role="alert"
      className="flex flex-col items-center gap-4 py-6 text-center"
      data-testid="checkout-creation-failed"
    >
      <p className="font-medium">{message}</p>
      <BackToPricing />
    </div>
  );
}

/** Self-hosted billing: no card form; plan changes take effect at once on the pricing page. */
function BillingNotConfigured() {
  return (
    <div className="space-y-4" data-testid="billing-not-configured">
      <p className="flex items-start gap-2 rounded-md border bg-muted/50 p-4 text-sm">
        <Info className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
        <span>
          {BILLING_MESSAGES.notConfigured}, so no card payment is taken here. Plan changes take effect at once: choose
          your plan on the Pricing page.
        </span>
      </p>
      <BackToPricing variant="default" />
    </div>
  );
}

/** What a failed creation says: the server's words, its fallback, or (an answer it could not read) "Unable to create...". */
function creationMessage(error: unknown): string {
  return error instanceof ApiError
    ? serverMessageOr(error, CHECKOUT_MESSAGES.failedToCreate)
    : CHECKOUT_MESSAGES.unableToCreate;
}

/**
 * Stripe mode: the client secret given by the pricing page, or one asked for here (POST
 * /api/upgrade-subscription). The answer "Subscription upgraded successfully" means nothing was due:
 * immediate success.
 */
function StripeCheckout({
  publishableKey,
  priceId,
  givenSecret,
}: {
  publishableKey: string;
  priceId: BillingPriceId;
  givenSecret: string | null;
}) {
  const navigate = useNavigate();
  const upgrade = useUpgradeMutation();
  const [clientSecret, setClientSecret] = useState(givenSecret);
  const [failure, setFailure] = useState<string | null>(null);
  const asked = useRef(false);

  useEffect(() => {
    if (clientSecret || asked.current) return;
    asked.current = true;
    upgrade.mutate(priceId, {
      onSuccess: (answer) => {
        if ('clientSecret' in answer) setClientSecret(answer.clientSecret);
        else void navigate(UPGRADE_SUCCESS_PATH);
      },
      onError: (error) => setFailure(creationMessage(error)),
    });
  }, [clientSecret, priceId, upgrade, navigate]);

  const unavailable = useCallback(() => setFailure(CHECKOUT_MESSAGES.unavailable), []);
  const succeeded = useCallback(() => void navigate(UPGRADE_SUCCESS_PATH), [navigate]);

  if (failure) return <CreationFailed message={failure} />;
  if (!clientSecret)
    return (
      <div className="flex justify-center py-10">
        <Spinner label="Preparing your subscription" />
      </div>
    );
  return (
    <StripePayment
      publishableKey={publishableKey}
      clientSecret={clientSecret}
      planId={priceId}
      onUnavailable={unavailable}
      onSucceeded={succeeded}
    />
  );
}

function SignedInCheckout({ priceId, givenSecret }: { priceId: BillingPriceId; givenSecret: string | null }) {
  const subscription = useSubscription();
  return (
    <QueryState
      query={subscription}
      loading={
        <div className="flex justify-center py-10">
          <Spinner label="Loading" />
        </div>
      }
      errorMessage={(error) => serverMessageOr(error, 'Your subscription could not be loaded.')}
    >
      {({ billing }) => {
        if (billing.mode === 'self-hosted') return <BillingNotConfigured />;
        if (!billing.publishableKey) return <CreationFailed message={CHECKOUT_MESSAGES.unavailable} />;
        return <StripeCheckout publishableKey={billing.publishableKey} priceId={priceId} givenSecret={givenSecret} />;
      }}
    </QueryState>
  );
}

/**
 * /checkout?plan={planId}&client_secret=...&subscription_id=... (part 2, sections 2 and 4): the
 * embedded card payment. Without a plan (or with one that costs nothing) it goes to /pricing.
 */
export default function CheckoutPage() {
  const [params] = useSearchParams();
  const { user, isLoading } = useAuth();
  const choice = PlanChoice.safeParse(params.get('plan'));
  const price = choice.success ? priceOfChoice(choice.data) : 'free';
  if (price === 'free') return <Navigate to={PATHS.pricing} replace />;
  const plan = PLAN_OF_PRICE[price];

  return (
    <PublicLayout>
      <div className="mx-auto max-w-xl px-4 py-10" data-testid="checkout-page">
        <h1 className="text-3xl font-bold tracking-tight">Checkout</h1>
        <Card className="mt-6">
          <CardHeader>
            <CardTitle className="text-lg" data-testid="checkout-plan">
              {PLAN_LABELS[plan]}
            </CardTitle>
            <CardDescription>{subscriptionPriceLabel({ plan, priceId: price })}</CardDescription>
          </CardHeader>
          <CardContent>
            {isLoading ? (
              <div className="flex justify-center py-10">
                <Spinner label="Loading" />
              </div>
            ) : user ? (
              <SignedInCheckout priceId={price} givenSecret={params.get('client_secret')} />
            ) : (
              <div className="flex flex-col items-center gap-4 py-6 text-center" data-testid="checkout-signed-out">
                <p>Please log in to continue to checkout.</p>
                <div className="flex flex-wrap justify-center gap-3">
                  <Button asChild>
                    <Link to={PATHS.login}>Login</Link>
                  </Button>
                  <BackToPricing />
                </div>
              </div>
            )}
          </CardContent>
        </Card>
      </div>
    </PublicLayout>
  );
}
