import { useEffect, useRef, useState, type FormEvent } from 'react';
import { CheckCircle2, Lock, XCircle } from 'lucide-react';
import type { Stripe, StripeElements } from '@stripe/stripe-js';
// The pure entry loads Stripe.js only when asked, so no other page ever fetches it. This package
// version loads one named release of Stripe.js (https://js.stripe.com/endive/stripe.js), the one
// that matches the server's Stripe API version.
import { loadStripe } from '@stripe/stripe-js/pure';
import type { BillingPriceId } from '@contracts/billing';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { toast } from '../../../components/ui/use-toast';
import { PATHS } from '../../../lib/paths';
import { CHECKOUT_MESSAGES, paymentErrorMessage } from '../checkout-messages';

/** The checkout's states (part 2, section 4): idle, processing, succeeded, failed; Try Again returns to idle. */
export type PaymentState =
  { step: 'idle' } | { step: 'processing' } | { step: 'succeeded' } | { step: 'failed'; message: string };

/** Where Stripe sends the browser back after a payment that needed a redirect (part 2, section 4). */
export function paymentReturnUrl(planId: BillingPriceId): string {
  return `${window.location.origin}${PATHS.subscription}?payment=success&plan=${planId}`;
}

/** Stripe.js and a mounted Payment Element for this client secret; `failed` when Stripe.js cannot be had. */
function usePaymentElement(publishableKey: string, clientSecret: string) {
  const mountRef = useRef<HTMLDivElement>(null);
  const [loaded, setLoaded] = useState<{ stripe: Stripe; elements: StripeElements } | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let gone = false;
    let unmount: (() => void) | undefined;
    loadStripe(publishableKey)
      .then((stripe) => {
        if (gone) return;
        if (!stripe || !mountRef.current) return setFailed(true);
        const elements = stripe.elements({ clientSecret });
        const element = elements.create('payment');
        element.mount(mountRef.current);
        unmount = () => element.destroy();
        setLoaded({ stripe, elements });
      })
      .catch(() => !gone && setFailed(true));
    return () => {
      gone = true;
      unmount?.();
    };
  }, [publishableKey, clientSecret]);
  return { mountRef, loaded, failed };
}

/**
 * The embedded card payment: Stripe's Payment Element, its own validation first, then the payment.
 * An in-page success goes to /subscription?upgrade=success; a payment method that redirects comes
 * back to /subscription?payment=success&plan={planId}.
 */
export function StripePayment({
  publishableKey,
  clientSecret,
  planId,
  onUnavailable,
  onSucceeded,
}: {
  publishableKey: string;
  clientSecret: string;
  planId: BillingPriceId;
  onUnavailable: () => void;
  onSucceeded: () => void;
}) {
  const { mountRef, loaded, failed } = usePaymentElement(publishableKey, clientSecret);
  const [state, setState] = useState<PaymentState>({ step: 'idle' });
  useEffect(() => {
    if (failed) onUnavailable();
  }, [failed, onUnavailable]);

  const pay = async (event: FormEvent) => {
    event.preventDefault();
    if (state.step === 'processing') return;
    if (!loaded) {
      toast({ title: 'Error', description: CHECKOUT_MESSAGES.notReady, variant: 'destructive' });
      return;
    }
    const { stripe, elements } = loaded;
    setState({ step: 'processing' });
    try {
      const checked = await elements.submit();
      if (checked.error) {
        toast({
          title: CHECKOUT_MESSAGES.validationTitle,
          description: checked.error.message || CHECKOUT_MESSAGES.validationFallback,
          variant: 'destructive',
        });
        setState({ step: 'idle' });
        return;
      }
      const confirmParams = { return_url: paymentReturnUrl(planId) };
      // A subscription whose first invoice is free needs only the card saved: a SetupIntent's secret.
      const result = clientSecret.startsWith('seti_')
        ? await stripe.confirmSetup({ elements, clientSecret, confirmParams, redirect: 'if_required' })
        : await stripe.confirmPayment({ elements, clientSecret, confirmParams, redirect: 'if_required' });
      if (result.error) {
        const message = paymentErrorMessage(result.error);
        toast({ title: CHECKOUT_MESSAGES.failedTitle, description: message, variant: 'destructive' });
        setState({ step: 'failed', message });
        return;
      }
      setState({ step: 'succeeded' });
      onSucceeded();
    } catch {
      toast({ title: CHECKOUT_MESSAGES.failedTitle, description: CHECKOUT_MESSAGES.network, variant: 'destructive' });
      setState({ step: 'failed', message: CHECKOUT_MESSAGES.network });
    }
  };

  return (
    <div data-testid="stripe-payment" data-state={state.step}>
      {state.step === 'failed' && (
        <div
          role="alert"
          className="mb-6 flex flex-col items-center gap-3 rounded-md border border-red-200 bg-red-50 p-6 text-center"
          data-testid="payment-failed"
        >
          <XCircle className="size-10 text-red-600" aria-hidden="true" />
          <h2 className="text-lg font-semibold">{CHECKOUT_MESSAGES.failedTitle}</h2>
          <p className="text-sm text-red-900">{state.message}</p>
          <Button onClick={() => setState({ step: 'idle' })}>Try Again</Button>
        </div>
      )}
      {state.step === 'succeeded' && (
        <div role="status" className="flex flex-col items-center gap-3 p-6 text-center" data-testid="payment-succeeded">
          <CheckCircle2 className="size-10 text-green-600" aria-hidden="true" />
          <h2 className="text-lg font-semibold">Payment Successful</h2>
          <p className="text-sm text-muted-foreground">Taking you to your subscription...</p>
        </div>
      )}
      {/* Kept mounted while failed or done: Stripe's element lives in this node and Try Again reuses it. */}
      {/* eslint-disable-next-line form/one-form-style -- the card fields are Stripe's own element, which checks them itself */}
      <form
        onSubmit={(event) => void pay(event)}
        className={state.step === 'idle' || state.step === 'processing' ? 'space-y-6' : 'hidden'}
      >
        <div ref={mountRef} data-testid="payment-element" className="min-h-40" />
        {!loaded && (
          <div className="flex justify-center">
            <Spinner label="Loading the payment form" />
          </div>
        )}
        <Button type="submit" className="w-full" disabled={state.step === 'processing'}>
          <Lock aria-hidden="true" />
          {state.step === 'processing' ? 'Processing...' : 'Pay and Subscribe'}
        </Button>
      </form>
    </div>
  );
}
