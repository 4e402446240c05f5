import { screen, waitFor, within } from '@testing-library/react';
import type { RouteObject } from 'react-router';
import { describe, expect, it } from 'vitest';
import { jsonResponse, makeUser, renderApp, settled, signedOut, stubFetch } from '../test/test-utils';
import type { TitledHandle } from './route-title';
import { routes } from './router';

const signedIn = { 'GET /api/user': () => jsonResponse(makeUser()), 'GET /api/alerts': () => jsonResponse([]) };

describe('route gating', () => {
  it('shows a full-page spinner while the user query is loading', () => {
    stubFetch({ 'GET /api/user': () => new Promise<Response>(() => {}) });
    renderApp('/domains');
    expect(screen.getByTestId('page-spinner')).toBeInTheDocument();
  });

  it('shows the login screen in place of a signed-in page when signed out, without redirecting', async () => {
    const fetchMock = stubFetch(signedOut);
    const { router } = renderApp('/domains');
    expect(await screen.findByTestId('login-form')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/domains');
    expect(screen.queryByTestId('sidebar')).not.toBeInTheDocument();
    // Alerts are only asked for when someone is signed in.
    expect(fetchMock.mock.calls.some(([url]) => String(url) === '/api/alerts')).toBe(false);
  });

  it('treats a failing user query (not only 401) as signed out', async () => {
    const fetchMock = stubFetch({
      'GET /api/user': () => new Response('', { status: 500, statusText: 'Internal Server Error' }),
    });
    const app = renderApp('/alerts');
    expect(await screen.findByTestId('login-form')).toBeInTheDocument();
    // The login screen mounting refetches the failed query once (refetch on mount), and no more.
    await settled(app);
    expect(fetchMock.mock.calls.length).toBeLessThanOrEqual(2);
    expect(screen.getByTestId('login-form')).toBeInTheDocument();
  });

  it('shows the page inside the app shell when signed in', async () => {
    stubFetch({ ...signedIn, 'GET /api/domains': () => jsonResponse([]) });
    renderApp('/domains');
    expect(await screen.findByTestId('domains-page')).toBeInTheDocument();
    expect(screen.getByTestId('sidebar')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'Domain Management' })).toBeInTheDocument();
    expect(await screen.findByText('No domains added yet')).toBeInTheDocument();
  });

  it('shows the landing page at / when signed out, with Login and Start Free Account', async () => {
    stubFetch(signedOut);
    renderApp('/');
    expect(await screen.findByRole('heading', { level: 1, name: 'InboxPulse' })).toBeInTheDocument();
    const hero = within(screen.getByRole('main'));
    expect(hero.getByRole('link', { name: 'Login' })).toHaveAttribute('href', '/login');
    expect(hero.getByRole('link', { name: 'Start Free Account' })).toHaveAttribute('href', '/register');
  });

  it('carries the chat button and the cookie banner on the public pages, not on the signed-in ones', async () => {
    window.localStorage.clear();
    stubFetch(signedOut);
    for (const path of ['/', '/privacy-policy', '/inbox-placement']) {
      const view = renderApp(path);
      expect(await screen.findByRole('button', { name: 'Open chat assistant' })).toBeInTheDocument();
      expect(screen.getByTestId('cookie-banner')).toBeInTheDocument();
      view.unmount();
    }

    stubFetch({ ...signedIn, 'GET /api/domains': () => jsonResponse([]) });
    renderApp('/domains');
    expect(await screen.findByTestId('domains-page')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Open chat assistant' })).not.toBeInTheDocument();
    expect(screen.queryByTestId('cookie-banner')).not.toBeInTheDocument();
  });

  it('shows the dashboard at / and at /login when signed in', async () => {
    stubFetch(signedIn);
    const first = renderApp('/');
    expect(await screen.findByTestId('dashboard-page')).toBeInTheDocument();
    first.unmount();

    renderApp('/login');
    expect(await screen.findByTestId('dashboard-page')).toBeInTheDocument();
    expect(screen.queryByTestId('login-form')).not.toBeInTheDocument();
  });

  it('shows the dashboard instead of /register when already signed in', async () => {
    stubFetch(signedIn);
    renderApp('/register');
    expect(await screen.findByTestId('dashboard-page')).toBeInTheDocument();
    expect(screen.queryByTestId('register-form')).not.toBeInTheDocument();
  });

  it('shows the integrations marketing page when signed out and the manager when signed in', async () => {
    stubFetch(signedOut);
    const first = renderApp('/integrations');
    expect(await screen.findByRole('link', { name: 'Start Free Trial' })).toHaveAttribute('href', '/register');
    expect(screen.queryByTestId('sidebar')).not.toBeInTheDocument();
    first.unmount();

    stubFetch(signedIn);
    renderApp('/integrations');
    expect(await screen.findByTestId('integrations-page')).toBeInTheDocument();
    expect(screen.getByTestId('sidebar')).toBeInTheDocument();
  });

  it('keeps /checkout public', async () => {
    stubFetch(signedOut);
    renderApp('/checkout?plan=professional_monthly');
    expect(await screen.findByRole('heading', { level: 1, name: 'Checkout' })).toBeInTheDocument();
    expect(screen.queryByTestId('login-form')).not.toBeInTheDocument();
  });

  it('shows the not-found screen for an unknown path', async () => {
    stubFetch(signedOut);
    renderApp('/no-such-page');
    expect(await screen.findByRole('heading', { name: '404 Page Not Found' })).toBeInTheDocument();
  });
});

describe('tab titles', () => {
  it('are declared by every route that shows a page', () => {
    const untitled: string[] = [];
    const walk = (list: RouteObject[]) => {
      for (const route of list) {
        const isPage = route.element && !route.children;
        if (isPage && !(route.handle as TitledHandle | undefined)?.title) untitled.push(route.path ?? '(index)');
        if (route.children) walk(route.children);
      }
    };
    walk(routes);
    expect(untitled).toEqual([]);
  });

  it('name the page, then the product, and follow the session on the routes that have two forms', async () => {
    const cases: Array<[string, Parameters<typeof stubFetch>[0], string]> = [
      ['/', signedOut, 'Email Deliverability Monitoring · InboxPulse'],
      ['/login', signedOut, 'Login · InboxPulse'],
      ['/register', signedOut, 'Create Account · InboxPulse'],
      ['/domains', signedOut, 'Login · InboxPulse'],
      ['/inbox-placement', signedOut, 'Inbox Placement Testing · InboxPulse'],
      ['/pricing', signedOut, 'Pricing · InboxPulse'],
      ['/reset-password', signedOut, 'Reset Password · InboxPulse'],
      ['/no-such-page', signedOut, 'Page Not Found · InboxPulse'],
      ['/', signedIn, 'Dashboard · InboxPulse'],
      ['/login', signedIn, 'Dashboard · InboxPulse'],
      ['/domains', { ...signedIn, 'GET /api/domains': () => jsonResponse([]) }, 'Domain Management · InboxPulse'],
      ['/settings', signedIn, 'Settings · InboxPulse'],
    ];
    for (const [path, stubs, title] of cases) {
      stubFetch(stubs);
      const view = renderApp(path);
      await waitFor(() => expect(document.title, path).toBe(title));
      view.unmount();
    }
  });

  it('change when the app moves to another page', async () => {
    stubFetch({ ...signedIn, 'GET /api/domains': () => jsonResponse([]) });
    const { router } = renderApp('/domains');
    await waitFor(() => expect(document.title).toBe('Domain Management · InboxPulse'));
    await router.navigate('/settings');
    await waitFor(() => expect(document.title).toBe('Settings · InboxPulse'));
  });
});

describe('public pages and the session', () => {
  it('show Login to a visitor', async () => {
    stubFetch(signedOut);
    renderApp('/pricing');
    const site = within(await screen.findByRole('navigation', { name: 'Site' }));
    expect(site.getByRole('link', { name: 'Login' })).toHaveAttribute('href', '/login');
    expect(site.queryByTestId('signed-in-user')).not.toBeInTheDocument();
  });

  it('show a signed-in user their name and the Dashboard link instead of Login', async () => {
    stubFetch(signedIn);
    renderApp('/pricing');
    const site = within(await screen.findByRole('navigation', { name: 'Site' }));
    expect(site.getByTestId('signed-in-user')).toHaveTextContent('Signed in as ada');
    expect(site.getByRole('link', { name: 'Dashboard' })).toHaveAttribute('href', '/dashboard');
    expect(site.queryByRole('link', { name: 'Login' })).not.toBeInTheDocument();
  });
});
