import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { bodyOf, errorResponse, jsonResponse, renderApp, settled, signedOut, stubFetch } from '../../test/test-utils';
import { callsOf, makeSubscription, PROFESSIONAL_MONTHLY, stubBilling } from './test/fixtures';

// The one thing jsdom cannot do: load another page from the server (checkout's own response).
const loaded = vi.hoisted(() => ({ urls: [] as string[] }));
vi.mock('./load-page', () => ({ loadPage: (url: string) => loaded.urls.push(url) }));

beforeAll(async () => {
  await Promise.all([import('./pricing-page'), import('../../components/ui/toaster')]);
});

async function openPricing(path = '/pricing') {
  const app = renderApp(path);
  const user = userEvent.setup();
  const page = within(await screen.findByTestId('pricing-page'));
  return { app, user, page };
}

type CardId = 'free' | 'professional' | 'enterprise';
const card = (id: CardId) => within(screen.getByTestId(`plan-card-${id}`));
/** A card's button, once the signed-in page has loaded the subscription and the button reads `name`. */
const findButton = async (id: CardId, name: string) =>
  within(await screen.findByTestId(`plan-card-${id}`)).findByRole('button', { name });

describe('Pricing, signed out: "Choose Your Plan"', () => {
  it('has the breadcrumbs Home > Pricing and the pricing page’s figures as the spec writes them', async () => {
    stubFetch(signedOut);
    const { page } = await openPricing();
    expect(page.getByRole('heading', { level: 1, name: 'Choose Your Plan' })).toBeInTheDocument();
    const crumbs = within(page.getByRole('navigation', { name: 'Breadcrumb' }));
    expect(crumbs.getByRole('link', { name: 'Home' })).toHaveAttribute('href', '/');
    expect(crumbs.getByText('Pricing')).toHaveAttribute('aria-current', 'page');

    expect(card('free').getByTestId('plan-price-free')).toHaveTextContent('$0');
    for (const line of ['5 domains', '10,000 emails per month', '30-day data retention'])
      expect(card('free').getByText(line)).toBeInTheDocument();
    expect(card('professional').getByTestId('plan-price-professional')).toHaveTextContent('$49per month');
    for (const line of ['Unlimited domains', 'Unlimited email volume', '1-year data retention', 'API access'])
      expect(card('professional').getByText(line)).toBeInTheDocument();
    expect(card('enterprise').getByRole('heading', { name: 'Custom Enterprise' })).toBeInTheDocument();
    expect(card('enterprise').getByTestId('plan-price-enterprise')).toHaveTextContent('Custom');
    expect(page.getByTestId('annual-badge')).toHaveTextContent('Save 25%');
  });

  it('leads to /register, /register?plan={id} for the period shown, and the sales mailto', async () => {
    stubFetch(signedOut);
    const { user, page } = await openPricing();
    expect(card('free').getByRole('link', { name: 'Get Started' })).toHaveAttribute('href', '/register');
    expect(card('professional').getByRole('link', { name: 'Subscribe' })).toHaveAttribute(
      'href',
      '/register?plan=professional_monthly',
    );
    expect(card('enterprise').getByRole('link', { name: 'Contact Sales' })).toHaveAttribute(
      'href',
      'mailto:sales@inboxpulse.com',
    );

    await user.click(page.getByRole('button', { name: 'Annual' }));
    expect(page.getByRole('button', { name: 'Annual' })).toHaveAttribute('aria-pressed', 'true');
    expect(card('professional').getByTestId('plan-price-professional')).toHaveTextContent(
      '$40per month, billed annually ($480 a year)',
    );
    expect(card('professional').getByRole('link', { name: 'Subscribe' })).toHaveAttribute(
      'href',
      '/register?plan=professional_annual',
    );
    // Signed out there is no coupon field: a coupon is entered at registration.
    expect(page.queryByTestId('coupon-form')).not.toBeInTheDocument();
  });

  it('outlines the plan an upgrade prompt names (?highlight=) and takes the period of a price id', async () => {
    stubFetch(signedOut);
    await openPricing('/pricing?highlight=professional_annual');
    expect(screen.getByTestId('plan-card-professional')).toHaveAttribute('data-highlighted', 'true');
    expect(screen.getByTestId('plan-card-free')).not.toHaveAttribute('data-highlighted');
    expect(card('professional').getByRole('link', { name: 'Subscribe' })).toHaveAttribute(
      'href',
      '/register?plan=professional_annual',
    );
  });
});

describe('Pricing, signed in: "Manage Your Plan"', () => {
  it('on the free plan: Current Plan (disabled), Upgrade, Contact Sales, and the self-hosted note', async () => {
    stubBilling();
    const { app, page } = await openPricing();
    expect(await page.findByRole('heading', { level: 1, name: 'Manage Your Plan' })).toBeInTheDocument();
    await settled(app);
    expect(page.getByTestId('current-plan-line')).toHaveTextContent('You are on the Free Plan.');
    expect(card('free').getByRole('button', { name: 'Current Plan' })).toBeDisabled();
    expect(card('professional').getByRole('button', { name: 'Upgrade' })).toBeEnabled();
    expect(card('enterprise').getByRole('link', { name: 'Contact Sales' })).toHaveAttribute(
      'href',
      'mailto:sales@inboxpulse.com',
    );
    expect(page.getByTestId('billing-not-configured')).toHaveTextContent('Billing is not configured on this server');
  });

  it('Upgrade with no subscription (item 3) takes effect at once without a payment (item 7): the plan and the buttons follow', async () => {
    const fetch = stubBilling();
    const { app, user, page } = await openPricing();
    await user.click(await findButton('professional', 'Upgrade'));
    expect(await screen.findByText('Subscription upgraded successfully')).toBeInTheDocument();
    expect(bodyOf(fetch, 'POST /api/upgrade-subscription')).toEqual({ planId: 'professional_monthly' });
    // The user, the subscription and the usage are asked for again.
    await waitFor(() =>
      expect(page.getByTestId('current-plan-line')).toHaveTextContent('You are on the Professional Plan.'),
    );
    await settled(app);
    const afterUpgrade = callsOf(fetch).slice(callsOf(fetch).indexOf('POST /api/upgrade-subscription'));
    for (const call of ['GET /api/user', 'GET /api/subscription']) expect(afterUpgrade).toContain(call);
    expect(card('professional').getByRole('button', { name: 'Current Plan' })).toBeDisabled();
    expect(card('free').getByRole('button', { name: 'Downgrade to Free' })).toBeEnabled();
    expect(loaded.urls).toEqual([]);
  });

  it('an upgrade that needs a payment goes to checkout with the client secret (item 7)', async () => {
    loaded.urls.length = 0;
    stubBilling({
      mode: 'stripe',
      publishableKey: 'pk_test_123',
      overrides: {
        'POST /api/upgrade-subscription': () =>
          jsonResponse({ clientSecret: 'pi_1_secret_2', planId: 'professional_annual', subscriptionId: 'sub_9' }),
      },
    });
    const { user, page } = await openPricing();
    await user.click(await page.findByRole('button', { name: 'Annual' }));
    await user.click(card('professional').getByRole('button', { name: 'Upgrade' }));
    await waitFor(() =>
      expect(loaded.urls).toEqual([
        '/checkout?plan=professional_annual&client_secret=pi_1_secret_2&subscription_id=sub_9',
      ]),
    );
  });

  it('an active paid subscription changes to the other period with Change Plan (item 5), sending the applied coupon', async () => {
    const fetch = stubBilling({
      subscription: { ...PROFESSIONAL_MONTHLY, coupon: { code: 'WELCOME10', percentOff: 10, amountOffCents: null } },
    });
    const { user, page } = await openPricing();
    await user.click(await page.findByRole('button', { name: 'Annual' }));
    await user.click(card('professional').getByRole('button', { name: 'Change Plan' }));
    expect(await screen.findByText('Subscription plan changed successfully')).toBeInTheDocument();
    expect(bodyOf(fetch, 'POST /api/change-subscription')).toEqual({
      newPlanId: 'professional_annual',
      couponCode: 'WELCOME10',
    });
    expect(await findButton('professional', 'Current Plan')).toBeDisabled();
  });

  it('Downgrade to Free asks first, then downgrades (item 2)', async () => {
    const fetch = stubBilling({ subscription: PROFESSIONAL_MONTHLY });
    const { user } = await openPricing();
    await user.click(await findButton('free', 'Downgrade to Free'));
    const dialog = within(await screen.findByTestId('downgrade-dialog'));
    expect(dialog.getByText(/data older than 30 days will be deleted/)).toBeInTheDocument();
    await user.click(dialog.getByRole('button', { name: 'Keep my plan' }));
    expect(callsOf(fetch)).not.toContain('POST /api/downgrade-subscription');

    await user.click(card('free').getByRole('button', { name: 'Downgrade to Free' }));
    await user.click(
      within(await screen.findByTestId('downgrade-dialog')).getByRole('button', { name: 'Downgrade to Free' }),
    );
    expect(await screen.findByText('Your plan is now Free')).toBeInTheDocument();
    expect(await findButton('free', 'Current Plan')).toBeDisabled();
  });

  it('a past-due subscription choosing Free hears it is already free (item 2), and nothing is sent', async () => {
    const fetch = stubBilling({ subscription: { ...PROFESSIONAL_MONTHLY, status: 'past_due' } });
    const { app, user } = await openPricing();
    await user.click(await findButton('free', 'Downgrade to Free'));
    expect(await screen.findByText("You're already on the Free plan")).toBeInTheDocument();
    await settled(app);
    expect(callsOf(fetch).filter((call) => call.startsWith('POST'))).toEqual([]);
  });

  it('a failed upgrade shows the server’s words, or "Failed to upgrade subscription" without them', async () => {
    stubBilling({
      overrides: {
        'POST /api/upgrade-subscription': () =>
          errorResponse(409, 'conflict', 'The Custom Enterprise plan is arranged with sales'),
      },
    });
    const { user } = await openPricing();
    await user.click(await findButton('professional', 'Upgrade'));
    expect(await screen.findByText('The Custom Enterprise plan is arranged with sales')).toBeInTheDocument();

    stubBilling({ overrides: { 'POST /api/upgrade-subscription': () => new Response('', { status: 502 }) } });
    await user.click(card('professional').getByRole('button', { name: 'Upgrade' }));
    expect(await screen.findByText('Failed to upgrade subscription')).toBeInTheDocument();
    expect(card('professional').getByRole('button', { name: 'Upgrade' })).toBeEnabled();
  });

  it('?plan= says which card to press, on the plan named', async () => {
    stubBilling();
    await openPricing('/pricing?plan=professional');
    expect(await screen.findByTestId('chosen-plan')).toHaveTextContent(
      'You chose the Professional plan: press Upgrade on its card below to continue.',
    );
    expect(screen.getByTestId('plan-card-professional')).toHaveAttribute('data-highlighted', 'true');
  });
});

describe('Pricing: the coupon field (part 2, section 5)', () => {
  it('ignores blank input, trims the code, and locks the field once applied', async () => {
    const fetch = stubBilling({
      overrides: {
        'POST /api/apply-coupon': () => jsonResponse({ discount: 20, message: 'Coupon SAVE20 applied: 20% off' }),
      },
    });
    const { user, page } = await openPricing();
    const field = await page.findByRole('textbox', { name: 'Coupon code' });
    const apply = page.getByRole('button', { name: 'Apply' });
    expect(apply).toBeDisabled();
    await user.type(field, '   ');
    expect(apply).toBeDisabled();
    await user.type(field, '{Enter}');
    expect(callsOf(fetch)).not.toContain('POST /api/apply-coupon');

    await user.clear(field);
    await user.type(field, '  SAVE20  ');
    await user.click(apply);
    expect(await page.findByTestId('coupon-applied')).toHaveTextContent('Coupon SAVE20 applied: 20% off');
    expect(bodyOf(fetch, 'POST /api/apply-coupon')).toEqual({ couponCode: 'SAVE20', planId: 'professional_monthly' });
    expect(field).toBeDisabled();
    expect(field).toHaveValue('SAVE20');
    expect(page.getByRole('button', { name: 'Applied' })).toBeDisabled();
    expect(card('professional').getByText('20% off with coupon SAVE20')).toBeInTheDocument();
  });

  it('a refused code shows the server’s words, else "Invalid coupon code"; no answer at all, "Failed to apply coupon"', async () => {
    let answer: () => Response | Promise<Response> = () =>
      errorResponse(400, 'validation_error', 'This coupon has expired');
    stubBilling({ overrides: { 'POST /api/apply-coupon': () => answer() } });
    const { user, page } = await openPricing();
    const field = await page.findByRole('textbox', { name: 'Coupon code' });
    await user.type(field, 'OLD');
    await user.click(page.getByRole('button', { name: 'Apply' }));
    expect(await page.findByTestId('coupon-error')).toHaveTextContent('This coupon has expired');
    expect(field).toBeEnabled();

    answer = () => new Response('', { status: 400 });
    await user.click(page.getByRole('button', { name: 'Apply' }));
    await waitFor(() => expect(page.getByTestId('coupon-error')).toHaveTextContent('Invalid coupon code'));

    answer = () => Promise.reject(new TypeError('Failed to fetch'));
    await user.click(page.getByRole('button', { name: 'Apply' }));
    await waitFor(() => expect(page.getByTestId('coupon-error')).toHaveTextContent('Failed to apply coupon'));
  });

  it('a coupon the subscription already carries is shown locked', async () => {
    stubBilling({
      subscription: makeSubscription({ coupon: { code: 'LAUNCH', percentOff: 15, amountOffCents: null } }),
    });
    const { page } = await openPricing();
    expect(await page.findByTestId('coupon-applied')).toHaveTextContent('Coupon LAUNCH applied: 15% off');
    expect(page.getByRole('textbox', { name: 'Coupon code' })).toBeDisabled();
  });
});
