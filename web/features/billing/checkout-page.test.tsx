import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { bodyOf, errorResponse, jsonResponse, renderApp, settled, signedOut, stubFetch } from '../../test/test-utils';
import { callsOf, stubBilling } from './test/fixtures';

/**
 * What the Stripe.js script defines when it loads: window.Stripe. The page's loader (the
 * @stripe/stripe-js package) uses a window.Stripe already there instead of fetching the script, and
 * keeps the first one for the whole file, so each test sets what this one answers.
 */
const stripe = vi.hoisted(() => ({
  mounted: 0,
  submit: async (): Promise<{ error?: { message?: string } }> => ({}),
  confirmPayment: async (
    _options: unknown,
  ): Promise<{ error?: { type?: string; code?: string; message?: string } }> => ({}),
  confirmCalls: [] as unknown[],
  keys: [] as string[],
}));

function FakeStripe(key: string) {
  stripe.keys.push(key);
  return {
    elements: () => ({
      create: () => ({ mount: () => void stripe.mounted++, destroy: () => {} }),
      submit: () => stripe.submit(),
    }),
    confirmPayment: (options: unknown) => {
      stripe.confirmCalls.push(options);
      return stripe.confirmPayment(options);
    },
  };
}
FakeStripe.version = 'endive';

const STRIPE_MODE = { mode: 'stripe' as const, publishableKey: 'pk_test_checkout' };
const WITH_SECRET = '/checkout?plan=professional_monthly&client_secret=pi_1_secret_2&subscription_id=sub_9';

beforeAll(async () => {
  await Promise.all([import('./checkout-page'), import('../../components/ui/toaster')]);
});

beforeEach(() => {
  vi.stubGlobal('Stripe', FakeStripe);
  Object.assign(stripe, {
    mounted: 0,
    confirmCalls: [],
    keys: [],
    submit: async () => ({}),
    confirmPayment: async () => ({}),
  });
});

async function openCheckout(path: string) {
  const app = renderApp(path);
  const user = userEvent.setup();
  const page = within(await screen.findByTestId('checkout-page'));
  return { app, user, page };
}

describe('Checkout: where it leads', () => {
  it('without a plan goes to /pricing', async () => {
    stubFetch(signedOut);
    const { router } = renderApp('/checkout');
    await waitFor(() => expect(router.state.location.pathname).toBe('/pricing'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Choose Your Plan' })).toBeInTheDocument();
  });

  it('signed out asks to log in, and loads no payment system', async () => {
    stubFetch(signedOut);
    const { app, page } = await openCheckout('/checkout?plan=professional_annual');
    expect(page.getByTestId('checkout-plan')).toHaveTextContent('Professional Plan');
    expect(await page.findByTestId('checkout-signed-out')).toHaveTextContent('Please log in to continue to checkout.');
    await settled(app);
    expect(stripe.keys).toEqual([]);
  });

  it('self-hosted: no card form, billing is not configured and plan changes take effect at once, with Back to Pricing', async () => {
    const fetch = stubBilling();
    const { app, page } = await openCheckout('/checkout?plan=professional_monthly');
    const note = within(await page.findByTestId('billing-not-configured'));
    expect(
      note.getByText(
        /Billing is not configured on this server, so no card payment is taken here. Plan changes take effect at once/,
      ),
    ).toBeInTheDocument();
    expect(note.getByRole('link', { name: 'Back to Pricing' })).toHaveAttribute('href', '/pricing');
    await settled(app);
    expect(page.queryByTestId('payment-element')).not.toBeInTheDocument();
    expect(stripe.keys).toEqual([]);
    expect(callsOf(fetch)).not.toContain('POST /api/upgrade-subscription');
  });
});

describe('Checkout in Stripe mode', () => {
  it('pays with the client secret given: processing, then in-page success goes to /subscription?upgrade=success', async () => {
    let release: () => void = () => {};
    stripe.confirmPayment = () => new Promise((resolve) => (release = () => resolve({})));
    stubBilling(STRIPE_MODE);
    const { app, user, page } = await openCheckout(WITH_SECRET);
    await waitFor(() => expect(stripe.mounted).toBe(1));
    expect(stripe.keys).toEqual(['pk_test_checkout']);
    await user.click(page.getByRole('button', { name: 'Pay and Subscribe' }));
    expect(await page.findByRole('button', { name: 'Processing...' })).toBeDisabled();
    expect(page.getByTestId('stripe-payment')).toHaveAttribute('data-state', 'processing');
    release();
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/subscription'));
    expect(app.router.state.location.search).toBe('?upgrade=success');
    expect(stripe.confirmCalls[0]).toMatchObject({
      clientSecret: 'pi_1_secret_2',
      redirect: 'if_required',
      confirmParams: { return_url: `${window.location.origin}/subscription?payment=success&plan=professional_monthly` },
    });
  });

  it('a declined card: the Payment Failed screen with the spec’s words; Try Again returns to the form', async () => {
    stripe.confirmPayment = async () => ({
      error: { type: 'card_error', code: 'card_declined', message: 'Your card was declined.' },
    });
    stubBilling(STRIPE_MODE);
    const { user, page } = await openCheckout(WITH_SECRET);
    await waitFor(() => expect(stripe.mounted).toBe(1));
    await user.click(page.getByRole('button', { name: 'Pay and Subscribe' }));
    const failed = within(await page.findByTestId('payment-failed'));
    expect(failed.getByRole('heading', { name: 'Payment Failed' })).toBeInTheDocument();
    expect(failed.getByText('Your card was declined. Please try a different payment method.')).toBeInTheDocument();
    await user.click(failed.getByRole('button', { name: 'Try Again' }));
    expect(page.getByTestId('stripe-payment')).toHaveAttribute('data-state', 'idle');
    expect(page.getByRole('button', { name: 'Pay and Subscribe' })).toBeVisible();
  });

  it('the payment element’s own validation runs first: "Form Validation Error" and no payment', async () => {
    stripe.submit = async () => ({ error: {} });
    stubBilling(STRIPE_MODE);
    const { user, page } = await openCheckout(WITH_SECRET);
    await waitFor(() => expect(stripe.mounted).toBe(1));
    await user.click(page.getByRole('button', { name: 'Pay and Subscribe' }));
    expect(await screen.findByText('Form Validation Error')).toBeInTheDocument();
    expect(screen.getByText('Please complete all required fields')).toBeInTheDocument();
    expect(stripe.confirmCalls).toEqual([]);
    expect(page.getByTestId('stripe-payment')).toHaveAttribute('data-state', 'idle');
  });

  it('a connection lost during the payment says so and offers Try Again', async () => {
    stripe.confirmPayment = () => Promise.reject(new TypeError('Failed to fetch'));
    stubBilling(STRIPE_MODE);
    const { user, page } = await openCheckout(WITH_SECRET);
    await waitFor(() => expect(stripe.mounted).toBe(1));
    await user.click(page.getByRole('button', { name: 'Pay and Subscribe' }));
    const failed = within(await page.findByTestId('payment-failed'));
    expect(
      failed.getByText('Connection issue during payment. Please check your internet and try again.'),
    ).toBeInTheDocument();
    expect(failed.getByRole('button', { name: 'Try Again' })).toBeInTheDocument();
  });

  it('without a client secret asks the server for one, then shows the form for it', async () => {
    const fetch = stubBilling({
      ...STRIPE_MODE,
      overrides: {
        'POST /api/upgrade-subscription': () =>
          jsonResponse({ clientSecret: 'pi_new_secret', planId: 'professional_annual', subscriptionId: 'sub_2' }),
      },
    });
    const { user, page } = await openCheckout('/checkout?plan=professional_annual');
    await waitFor(() => expect(stripe.mounted).toBe(1));
    expect(bodyOf(fetch, 'POST /api/upgrade-subscription')).toEqual({ planId: 'professional_annual' });
    await user.click(page.getByRole('button', { name: 'Pay and Subscribe' }));
    await waitFor(() => expect(stripe.confirmCalls).toHaveLength(1));
    expect(stripe.confirmCalls[0]).toMatchObject({ clientSecret: 'pi_new_secret' });
    expect(callsOf(fetch).filter((call) => call === 'POST /api/upgrade-subscription')).toHaveLength(1);
  });

  it('"Subscription upgraded successfully" from the server is an immediate success', async () => {
    stubBilling({
      ...STRIPE_MODE,
      overrides: {
        'POST /api/upgrade-subscription': () =>
          jsonResponse({ message: 'Subscription upgraded successfully', planId: 'professional_monthly' }),
      },
    });
    const { app } = await openCheckout('/checkout?plan=professional');
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/subscription'));
    expect(app.router.state.location.search).toBe('?upgrade=success');
    expect(stripe.mounted).toBe(0);
  });

  it('a subscription that cannot be created: the server’s words, or "Failed to create subscription", with Back to Pricing', async () => {
    stubBilling({
      ...STRIPE_MODE,
      overrides: {
        'POST /api/upgrade-subscription': () =>
          errorResponse(503, 'unavailable', 'Unable to create subscription. Please try again.'),
      },
    });
    const first = await openCheckout('/checkout?plan=professional_monthly');
    const failed = within(await first.page.findByTestId('checkout-creation-failed'));
    expect(failed.getByText('Unable to create subscription. Please try again.')).toBeInTheDocument();
    expect(failed.getByRole('link', { name: 'Back to Pricing' })).toHaveAttribute('href', '/pricing');
    first.app.unmount();

    stubBilling({
      ...STRIPE_MODE,
      overrides: { 'POST /api/upgrade-subscription': () => new Response('', { status: 500 }) },
    });
    const second = await openCheckout('/checkout?plan=professional_monthly');
    expect(await second.page.findByTestId('checkout-creation-failed')).toHaveTextContent(
      'Failed to create subscription',
    );
  });

  it('Stripe mode without a publishable key: "Payment system unavailable. Please try again later."', async () => {
    stubBilling({ mode: 'stripe', publishableKey: null });
    const { page } = await openCheckout(WITH_SECRET);
    expect(await page.findByTestId('checkout-creation-failed')).toHaveTextContent(
      'Payment system unavailable. Please try again later.',
    );
    expect(stripe.keys).toEqual([]);
  });
});
