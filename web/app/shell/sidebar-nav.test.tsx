import { render, screen, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Alert } from '@contracts/alerts';
import { ALERTS_QUERY_KEY } from '../../lib/queries/alerts';
import { USER_QUERY_KEY } from '../../lib/session';
import { makeUser } from '../../test/test-utils';

// Which screens are built changes as the product grows: both outcomes are tested here with a chosen list.
const live = vi.hoisted(() => ({ paths: new Set<string>() }));
vi.mock('../../lib/live-routes', () => ({ isLivePath: (to: string) => live.paths.has(to) }));

const { SidebarNav } = await import('./sidebar-nav');

function unread(count: number): Alert[] {
  return Array.from({ length: count }, (_, i) => ({
    id: i + 1,
    type: 'dns_changes',
    severity: 'info',
    title: `Alert ${i + 1}`,
    message: 'SPF record published',
    domain: 'example.com',
    metadata: null,
    isRead: false,
    createdAt: '2025-01-01T00:00:00.000Z',
    updatedAt: null,
    resolvedAt: null,
    acknowledgedAt: null,
    history: [],
  }));
}

function renderNav() {
  const queryClient = new QueryClient({
    defaultOptions: { queries: { staleTime: Infinity, retry: false, enabled: false } },
  });
  queryClient.setQueryData(USER_QUERY_KEY, makeUser());
  queryClient.setQueryData(ALERTS_QUERY_KEY, unread(3));
  render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter initialEntries={['/domains']}>
        <SidebarNav />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return within(screen.getByRole('navigation', { name: 'Main navigation' }));
}

afterEach(() => live.paths.clear());

describe('SidebarNav', () => {
  it('links a built screen, and puts the unread badge on the Alerts link when Alerts is built', () => {
    live.paths = new Set(['/', '/domains', '/alerts']);
    const nav = renderNav();
    const alerts = nav.getByRole('link', { name: /Alerts/ });
    expect(alerts).toHaveAttribute('href', '/alerts');
    expect(within(alerts).getByLabelText('3 unread alerts')).toHaveTextContent('3');
    expect(nav.getByRole('link', { name: 'Domains' })).toHaveAttribute('aria-current', 'page');
  });

  it('lists a screen still being built as "Soon", not as a link, with no badge sending anyone there', () => {
    live.paths = new Set(['/', '/domains']);
    const nav = renderNav();
    expect(nav.queryByRole('link', { name: /Alerts/ })).not.toBeInTheDocument();
    const soon = nav.getAllByTestId('nav-soon').find((item) => item.textContent?.startsWith('Alerts'));
    expect(soon).toHaveTextContent('AlertsSoon: not available yet');
    expect(soon).toHaveAttribute('data-tour', 'nav-alerts');
    expect(screen.queryByTestId('unread-alerts-badge')).not.toBeInTheDocument();
    expect(nav.getAllByRole('link').map((link) => link.getAttribute('href'))).toEqual(['/', '/domains']);
  });
});
