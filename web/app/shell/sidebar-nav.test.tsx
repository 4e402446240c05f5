import { render, screen, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { Alert } from '@contracts/alerts';
import { ALERTS_QUERY_KEY } from '../../lib/queries/alerts';
import { USER_QUERY_KEY } from '../../lib/session';
import { makeUser } from '../../test/test-utils';

import { SidebarNav } from './sidebar-nav';

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

describe('SidebarNav', () => {
  it('links each screen, and puts the unread badge on the Alerts link', () => {
    const nav = renderNav();
    const alerts = nav.getByRole('link', { name: /Alerts/ });
    expect(alerts).toHaveAttribute('href', '/alerts');
    expect(within(alerts).getByLabelText('3 unread alerts')).toHaveTextContent('3');
    expect(nav.getByRole('link', { name: 'Domains' })).toHaveAttribute('aria-current', 'page');
  });
});
