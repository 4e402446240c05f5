import { screen, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { errorResponse, preloadSignedInFrame, renderApp } from '../../test/test-utils';
import { makeDomain, stubDashboard } from './test/fixtures';

beforeAll(async () => {
  await Promise.all([import('./dashboard-page'), preloadSignedInFrame()]);
});

describe('Dashboard: bulk-sender compliance card', () => {
  it('shows the count of rules not met, each domain linked to its scorecard', async () => {
    stubDashboard({
      domains: [makeDomain()],
      compliance: {
        notMet: 3,
        domains: [
          { domainId: 4, domain: 'news.example.com', notMet: 3, unknown: 5 },
          { domainId: 5, domain: 'shop.example.com', notMet: 0, unknown: 2 },
        ],
      },
    });
    renderApp('/dashboard');
    const card = within(await screen.findByTestId('compliance-card'));
    expect(await card.findByTestId('compliance-not-met')).toHaveTextContent('3 rules not met');
    expect(card.getByRole('link', { name: 'news.example.com' })).toHaveAttribute('href', '/domains/4/compliance');
    expect(card.getByText('5 unknown')).toBeInTheDocument();
    expect(card.getByRole('link', { name: 'shop.example.com' })).toHaveAttribute('href', '/domains/5/compliance');
    expect(card.getByText('0 rules not met')).toHaveAttribute('data-tone', 'good');
  });

  it('says what to do when no domain is checked yet, and when the count could not be loaded', async () => {
    stubDashboard({ domains: [makeDomain()] });
    const first = renderApp('/dashboard');
    const card = within(await screen.findByTestId('compliance-card'));
    expect(await card.findByText('Check a domain’s DNS to see which sender rules it meets.')).toBeInTheDocument();
    first.unmount();
    stubDashboard({
      domains: [makeDomain()],
      extra: { 'GET /api/dashboard/compliance': () => errorResponse(500, 'internal', 'boom') },
    });
    renderApp('/dashboard');
    const failed = within(await screen.findByTestId('compliance-card'));
    expect(await failed.findByText('Could not load the compliance scorecards.')).toBeInTheDocument();
  });
});
