import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { errorResponse, jsonResponse, preloadSignedInFrame, renderApp, settled } from '../../test/test-utils';
import { callsOf, makeInvoice, makeSubscription, makeUsage, PROFESSIONAL_MONTHLY, stubBilling } from './test/fixtures';

beforeAll(async () => {
  await Promise.all([import('./subscription-page'), preloadSignedInFrame()]);
});

async function openSubscription(path = '/subscription') {
  const app = renderApp(path);
  const user = userEvent.setup();
  const page = within(await screen.findByTestId('subscription-page'));
  return { app, user, page };
}

describe('Subscription: plan, status and usage', () => {
  it('free with no subscription: the Free Plan badge, N/A for the next billing date, real counts against the free limits', async () => {
    stubBilling({
      usage: makeUsage('free', { domains: 2, inboxTestsThisMonth: 10, emailsThisMonth: 8_500, alerts: 3 }),
    });
    const { page } = await openSubscription();
    expect(await page.findByTestId('current-plan-name')).toHaveTextContent('Free Plan');
    expect(page.getByTestId('subscription-status')).toHaveTextContent('Free Plan');
    expect(page.getByTestId('next-billing-date')).toHaveTextContent('N/A');
    expect(await page.findByTestId('usage-domains-value')).toHaveTextContent('2 of 5');
    expect(page.getByTestId('usage-inboxTestsPerMonth-value')).toHaveTextContent('10 of 10');
    expect(page.getByTestId('usage-emailsPerMonth-value')).toHaveTextContent('8,500 of 10,000');
    expect(page.getByRole('meter', { name: 'Emails this month' })).toHaveAttribute('aria-valuenow', '8500');
    expect(page.getByTestId('usage-alerts')).toHaveTextContent('3');
    expect(page.getByTestId('usage-retention')).toHaveTextContent('30 days');
    expect(page.getByTestId('usage-api')).toHaveTextContent('Not included');
    // At the limit: the plan that lifts it is named, on the pricing page.
    expect(
      within(page.getByTestId('usage-inboxTestsPerMonth')).getByRole('link', { name: /Professional plan allows more/ }),
    ).toHaveAttribute('href', '/pricing?highlight=professional');
    expect(page.getByRole('link', { name: 'Upgrade' })).toHaveAttribute('href', '/pricing');
    expect(page.queryByRole('button', { name: 'Cancel Subscription' })).not.toBeInTheDocument();
  });

  it('a professional plan: Active, its price and next billing date, unlimited domains and e-mails', async () => {
    stubBilling({
      mode: 'stripe',
      publishableKey: 'pk_test_1',
      subscription: PROFESSIONAL_MONTHLY,
      usage: makeUsage('professional', { domains: 12 }),
    });
    const { page } = await openSubscription();
    expect(await page.findByTestId('subscription-status')).toHaveTextContent('Active');
    expect(page.getByTestId('current-plan-name')).toHaveTextContent('Professional Plan');
    expect(page.getByTestId('current-plan-price')).toHaveTextContent('$49 per month');
    expect(page.getByTestId('next-billing-date')).toHaveTextContent('Jul 15, 2025');
    expect(await page.findByTestId('usage-domains-value')).toHaveTextContent('12 of Unlimited');
    expect(page.queryByRole('meter', { name: 'Domains' })).not.toBeInTheDocument();
    expect(page.getByTestId('usage-retention')).toHaveTextContent('365 days');
    expect(page.getByTestId('usage-api')).toHaveTextContent('10,000');
  });

  it('shows each status as its badge, and the past-due and payment-required notices', async () => {
    const statuses = [
      ['canceled', 'Canceled'],
      ['past_due', 'Past Due'],
      ['incomplete', 'Payment Required'],
      ['incomplete_expired', 'Payment Required'],
    ] as const;
    for (const [status, label] of statuses) {
      stubBilling({ subscription: { ...PROFESSIONAL_MONTHLY, status } });
      const { app, page } = await openSubscription();
      expect(await page.findByTestId('subscription-status')).toHaveTextContent(label);
      if (status === 'past_due')
        expect(page.getByTestId('past-due-notice')).toHaveTextContent(
          'Your subscription payment is past due. Please update your payment method.',
        );
      if (status.startsWith('incomplete')) {
        const notice = within(page.getByTestId('incomplete-notice'));
        expect(notice.getByText('Your subscription requires payment to complete.')).toBeInTheDocument();
        expect(notice.getByRole('link', { name: 'Go to Pricing' })).toHaveAttribute('href', '/pricing');
      }
      app.unmount();
    }
  });

  it('a missing date reads N/A and an unreadable one "Invalid date"', async () => {
    stubBilling({ subscription: { ...PROFESSIONAL_MONTHLY, current_period_end: 'not a date' } });
    const { page } = await openSubscription();
    expect(await page.findByTestId('next-billing-date')).toHaveTextContent('Invalid date');
  });
});

describe('Subscription: actions', () => {
  it('cancels after asking, then shows the cancel date with Reactivate, which withdraws it', async () => {
    const fetch = stubBilling({ mode: 'stripe', publishableKey: 'pk_test_1', subscription: PROFESSIONAL_MONTHLY });
    const { user, page } = await openSubscription();
    await user.click(await page.findByRole('button', { name: 'Cancel Subscription' }));
    const dialog = within(await screen.findByTestId('cancel-dialog'));
    expect(dialog.getByText(/You keep the Professional Plan until Jul 15, 2025/)).toBeInTheDocument();
    await user.click(dialog.getByRole('button', { name: 'Cancel Subscription' }));
    expect(
      await screen.findByText('Your subscription will be canceled at the end of the billing period'),
    ).toBeInTheDocument();

    const notice = within(await page.findByTestId('cancel-notice'));
    expect(notice.getByText('Jul 15, 2025')).toBeInTheDocument();
    expect(page.getByText('Access until')).toBeInTheDocument();
    expect(page.queryByRole('button', { name: 'Cancel Subscription' })).not.toBeInTheDocument();
    await user.click(notice.getByRole('button', { name: 'Reactivate Subscription' }));
    expect(await screen.findByText('Your subscription has been reactivated')).toBeInTheDocument();
    await waitFor(() => expect(page.queryByTestId('cancel-notice')).not.toBeInTheDocument());
    expect(callsOf(fetch)).toEqual(
      expect.arrayContaining(['POST /api/cancel-subscription', 'POST /api/reactivate-subscription']),
    );
  });

  it('scheduled to cancel: the card keeps the paid plan and its price until the end date, and says the Free Plan follows', async () => {
    stubBilling({
      mode: 'stripe',
      publishableKey: 'pk_test_1',
      subscription: { ...PROFESSIONAL_MONTHLY, cancel_at_period_end: true },
    });
    const { page } = await openSubscription();
    expect(await page.findByTestId('current-plan-name')).toHaveTextContent('Professional Plan');
    expect(page.getByTestId('current-plan-price')).toHaveTextContent(
      '$49 per month until Jul 15, 2025, then the Free Plan at $0',
    );
    expect(page.getByTestId('cancel-notice')).toHaveTextContent(
      'Your subscription is canceled and ends on Jul 15, 2025. You keep access to the Professional Plan until then; after that your account moves to the Free Plan.',
    );
  });

  it('a cancellation refused without words shows the default "Failed to cancel subscription. Please contact support."', async () => {
    stubBilling({
      subscription: PROFESSIONAL_MONTHLY,
      overrides: { 'POST /api/cancel-subscription': () => new Response('', { status: 500 }) },
    });
    const { user, page } = await openSubscription();
    await user.click(await page.findByRole('button', { name: 'Cancel Subscription' }));
    await user.click(
      within(await screen.findByTestId('cancel-dialog')).getByRole('button', { name: 'Cancel Subscription' }),
    );
    expect(await screen.findByText('Failed to cancel subscription. Please contact support.')).toBeInTheDocument();
  });

  it('Manage Billing opens the billing portal in a new tab; a refusal closes it and says so', async () => {
    const tab = { opener: {} as unknown, location: { href: 'about:blank' }, close: vi.fn() };
    const open = vi.fn(() => tab);
    vi.stubGlobal('open', open);
    let portal = () => jsonResponse({ url: 'https://billing.stripe.test/session/abc' });
    stubBilling({
      mode: 'stripe',
      publishableKey: 'pk_test_1',
      subscription: PROFESSIONAL_MONTHLY,
      overrides: { 'POST /api/subscription/billing-portal': () => portal() },
    });
    const { user, page } = await openSubscription();
    await user.click(await page.findByRole('button', { name: 'Manage Billing' }));
    await waitFor(() => expect(tab.location.href).toBe('https://billing.stripe.test/session/abc'));
    expect(open).toHaveBeenCalledWith('about:blank', '_blank');
    expect(tab.opener).toBeNull();

    portal = () => errorResponse(409, 'conflict', 'Billing is not configured on this server');
    await user.click(page.getByRole('button', { name: 'Manage Billing' }));
    expect(await screen.findByText('Failed to access billing portal. Please try again.')).toBeInTheDocument();
    expect(tab.close).toHaveBeenCalled();
  });

  it('a blocked pop-up: "Failed to open billing portal. Please try again."', async () => {
    vi.stubGlobal(
      'open',
      vi.fn(() => null),
    );
    const fetch = stubBilling({ mode: 'stripe', publishableKey: 'pk_test_1', subscription: PROFESSIONAL_MONTHLY });
    const { user, page } = await openSubscription();
    await user.click(await page.findByRole('button', { name: 'Manage Billing' }));
    expect(await screen.findByText('Failed to open billing portal. Please try again.')).toBeInTheDocument();
    expect(callsOf(fetch)).not.toContain('POST /api/subscription/billing-portal');
  });

  it('self-hosted: says billing is not configured where the portal would be', async () => {
    stubBilling({
      subscription: makeSubscription({ plan: 'professional', priceId: 'professional_monthly', status: 'active' }),
    });
    const { app, page } = await openSubscription();
    expect(await page.findByTestId('billing-not-configured')).toHaveTextContent(
      'Billing is not configured on this server: there is no billing portal',
    );
    expect(page.getByTestId('current-plan-price')).toHaveTextContent(
      'No charge: billing is not configured on this server',
    );
    await settled(app);
    expect(page.queryByRole('button', { name: 'Manage Billing' })).not.toBeInTheDocument();
  });
});

describe('Subscription: billing history', () => {
  it('lists the real invoices, newest first as the server sends them', async () => {
    stubBilling({
      mode: 'stripe',
      publishableKey: 'pk_test_1',
      subscription: PROFESSIONAL_MONTHLY,
      invoices: [
        makeInvoice(),
        makeInvoice({
          id: 'in_0',
          number: null,
          created: '2025-05-15T10:00:00.000Z',
          amountPaidCents: 0,
          hostedInvoiceUrl: null,
          status: 'void',
        }),
      ],
    });
    const { page } = await openSubscription();
    const rows = await page.findAllByTestId('invoice-row');
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent('Jun 15, 2025INV-0001$49.00Paid');
    expect(within(rows[0]!).getByRole('link', { name: /View/ })).toHaveAttribute(
      'href',
      'https://invoice.example/in_1',
    );
    expect(rows[1]).toHaveTextContent('in_0$0.00Void');
  });

  it('without invoices says so honestly, and why on a server without billing', async () => {
    stubBilling();
    const { page } = await openSubscription();
    expect(await page.findByTestId('billing-history-empty')).toHaveTextContent('No invoices yet');
    expect(page.getByTestId('billing-history-empty')).toHaveTextContent(
      'Billing is not configured on this server, so no payment is taken and there are no invoices.',
    );
  });
});

describe('Subscription: the return markers', () => {
  it('?upgrade=success says the upgrade succeeded and asks for the user again', async () => {
    const fetch = stubBilling({ subscription: PROFESSIONAL_MONTHLY });
    const { app, user, page } = await openSubscription('/subscription?upgrade=success');
    expect(await page.findByTestId('return-notice')).toHaveTextContent('Subscription upgraded successfully');
    await settled(app);
    expect(callsOf(fetch).filter((call) => call === 'GET /api/user').length).toBeGreaterThan(1);
    await user.click(page.getByRole('button', { name: 'Dismiss' }));
    expect(page.queryByTestId('return-notice')).not.toBeInTheDocument();
    expect(app.router.state.location.search).toBe('');
  });

  it('?payment=success&plan= waits for the payment to be confirmed, then says the plan is active', async () => {
    let subscription = { ...PROFESSIONAL_MONTHLY, status: 'incomplete' as const };
    let asked = 0;
    stubBilling({
      mode: 'stripe',
      publishableKey: 'pk_test_1',
      overrides: {
        'GET /api/subscription': () => {
          // Stripe's webhook reaches the server after the browser has come back.
          if (++asked === 2) subscription = { ...subscription, status: 'active' } as never;
          return jsonResponse({ subscription, billing: { mode: 'stripe', publishableKey: 'pk_test_1' } });
        },
      },
    });
    const { page } = await openSubscription('/subscription?payment=success&plan=professional_monthly');
    expect(await page.findByTestId('return-notice')).toHaveTextContent(
      'Payment received: we are confirming your Professional Plan',
    );
    await waitFor(
      () =>
        expect(page.getByTestId('return-notice')).toHaveTextContent(
          'Payment successful: your Professional Plan is active.',
        ),
      {
        timeout: 10_000,
      },
    );
    expect(page.getByTestId('subscription-status')).toHaveTextContent('Active');
  });
});
