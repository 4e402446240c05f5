import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Alert } from '@contracts/alerts';
import type { User } from '@contracts/user';
import { ALERTS_QUERY_KEY, alertsQueryOptions } from '../../lib/queries/alerts';
import { errorResponse, jsonResponse, makeUser, renderApp, stubFetch } from '../../test/test-utils';

function alert(id: number, isRead: boolean): Alert {
  return {
    id,
    type: 'blacklist_detection',
    severity: 'warning',
    title: `Alert ${id}`,
    message: 'Listed on a blocklist',
    domain: null,
    metadata: null,
    isRead,
    createdAt: '2025-01-01T00:00:00.000Z',
    updatedAt: null,
    resolvedAt: null,
    acknowledgedAt: null,
    history: [],
  };
}

function signedInAs(user: User, alerts: Alert[] = []) {
  return stubFetch({
    'GET /api/user': () => jsonResponse(user),
    'GET /api/alerts': () => jsonResponse(alerts),
    'POST /api/logout': () => jsonResponse({ message: 'Logged out' }),
  });
}

describe('App shell', () => {
  it("shows the user's real plan in the sidebar footer, not always 'Free Plan'", async () => {
    signedInAs(makeUser({ username: 'grace', subscriptionPlan: 'professional' }));
    renderApp('/domains');
    expect(await screen.findByTestId('sidebar-plan')).toHaveTextContent('Professional Plan');
    const sidebar = within(screen.getByTestId('sidebar'));
    expect(sidebar.getByText('grace')).toBeInTheDocument();
    expect(sidebar.getByText('G')).toBeInTheDocument();
  });

  it('shows Free Plan for a free user', async () => {
    signedInAs(makeUser({ subscriptionPlan: 'free' }));
    renderApp('/domains');
    expect(await screen.findByTestId('sidebar-plan')).toHaveTextContent('Free Plan');
  });

  it('badges Alerts with the number of unread alerts', async () => {
    signedInAs(makeUser(), [alert(1, false), alert(2, true), alert(3, false)]);
    renderApp('/domains');
    const sidebar = within(await screen.findByTestId('sidebar'));
    await screen.findByTestId('domains-page');
    const badge = await screen.findByLabelText('2 unread alerts');
    expect(badge).toHaveTextContent('2');
    expect(sidebar.getByRole('link', { name: /Alerts/ })).toContainElement(badge);
  });

  it('polls alerts every 30 s and on focus', () => {
    const options = alertsQueryOptions(true);
    expect(options.queryKey).toEqual(['/api/alerts']);
    expect(options.refetchInterval).toBe(30_000);
    expect(options.refetchOnWindowFocus).toBe(true);
    expect(alertsQueryOptions(false).enabled).toBe(false);
  });

  it('lists the navigation of part 1, section 2.7 in order, each a link, marking the current page', async () => {
    signedInAs(makeUser());
    renderApp('/domains');
    const nav = within(await screen.findByTestId('sidebar')).getByRole('navigation', { name: 'Main navigation' });
    const items = within(nav).getAllByRole('listitem');
    const spec: Array<[string, string]> = [
      ['Dashboard', '/'],
      ['Domains', '/domains'],
      ['Inbox Tests', '/inbox-placement'],
      ['Reputation', '/reputation'],
      ['Blacklist Monitor', '/blacklist-monitoring'],
      ['Alerts', '/alerts'],
      ['Integrations', '/integrations'],
      ['Subscription', '/subscription'],
      ['Settings', '/settings'],
    ];
    expect(items).toHaveLength(spec.length);
    spec.forEach(([label, path], index) => {
      const item = within(items[index]);
      expect(item.getByRole('link')).toHaveAttribute('href', path);
      expect(item.getByRole('link')).toHaveTextContent(label);
    });
    expect(within(nav).getByRole('link', { name: 'Domains' })).toHaveAttribute('aria-current', 'page');
    expect(within(nav).getByRole('link', { name: 'Dashboard' })).not.toHaveAttribute('aria-current');
  });

  it('shows breadcrumbs, title, plan badge to /subscription, and Add Domain on the dashboard', async () => {
    signedInAs(makeUser({ subscriptionPlan: 'professional' }));
    const { unmount } = renderApp('/inbox-placement');
    const crumbs = within(await screen.findByRole('navigation', { name: 'Breadcrumb' }));
    expect(crumbs.getByRole('link', { name: 'Dashboard' })).toHaveAttribute('href', '/');
    expect(crumbs.getByText('Inbox Tests')).toHaveAttribute('aria-current', 'page');
    expect(screen.getByRole('heading', { level: 1, name: 'Inbox Placement Testing' })).toBeInTheDocument();
    // The plan is in the page header and, for phones, in the top bar, a link to /subscription.
    for (const badge of screen.getAllByTestId('plan-badge')) {
      expect(badge).toHaveTextContent('Professional Plan');
      expect(badge).toHaveAttribute('href', '/subscription');
    }
    expect(screen.queryByRole('link', { name: 'Add Domain' })).not.toBeInTheDocument();
    unmount();

    renderApp('/dashboard');
    await screen.findByTestId('dashboard-page');
    // The page header's own buttons; the dashboard itself may offer Add Domain too (Quick Actions).
    const addDomain = within(screen.getByRole('banner')).getAllByRole('link', { name: 'Add Domain' });
    expect(addDomain).toHaveLength(2); // desktop and mobile variants
    for (const link of addDomain) expect(link).toHaveAttribute('href', '/domains');
  });

  it('opens the mobile drawer with the same navigation and footer', async () => {
    signedInAs(makeUser({ subscriptionPlan: 'professional' }));
    renderApp('/domains');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Open navigation menu' }));
    const drawer = within(await screen.findByRole('dialog'));
    expect(drawer.getByRole('link', { name: 'Settings' })).toHaveAttribute('href', '/settings');
    expect(drawer.getByTestId('drawer-plan')).toHaveTextContent('Professional Plan');
    await user.click(drawer.getByRole('link', { name: 'Settings' }));
    expect(await screen.findByTestId('settings-page')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });
});

describe('Logout', () => {
  it('posts /api/logout, clears every cached query and shows the landing page at /', async () => {
    const fetchMock = signedInAs(makeUser(), [alert(1, false)]);
    const { router, queryClient } = renderApp('/domains');
    const user = userEvent.setup();
    await waitFor(() => expect(queryClient.getQueryData(ALERTS_QUERY_KEY)).toHaveLength(1));
    await user.click(screen.getByTestId('logout-button'));
    expect(await screen.findByRole('heading', { level: 1, name: 'InboxPulse' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
    expect(screen.queryByTestId('sidebar')).not.toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([url, init]) => String(url) === '/api/logout' && init?.method === 'POST')).toBe(
      true,
    );
    expect(queryClient.getQueryData(ALERTS_QUERY_KEY)).toBeUndefined();
  });

  it('leaves for the landing page even when the logout call fails, also from the dashboard at /', async () => {
    stubFetch({
      'GET /api/user': () => jsonResponse(makeUser()),
      'GET /api/alerts': () => jsonResponse([]),
      'POST /api/logout': () => errorResponse(500, 'internal', 'Something went wrong'),
    });
    const { router } = renderApp('/');
    const user = userEvent.setup();
    await screen.findByTestId('dashboard-page');
    await user.click(screen.getByTestId('logout-button'));
    expect(await screen.findByRole('heading', { level: 1, name: 'InboxPulse' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
    expect(screen.queryByTestId('dashboard-page')).not.toBeInTheDocument();
  });
});
