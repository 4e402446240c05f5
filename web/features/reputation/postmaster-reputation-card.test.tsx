import { screen, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { GOOGLE_NOT_CONFIGURED } from '@contracts/postmaster';
import { connectedStatus, makePostmasterDay, makePostmasterStatus } from '../../test/postmaster-fixtures';
import { jsonResponse, renderApp } from '../../test/test-utils';
import { stubReputation } from './test/fixtures';

// The reputation page's Gmail Reputation card: each domain's reputation at Gmail, from Postmaster Tools.

beforeAll(async () => {
  await Promise.all([
    import('./reputation-page'),
    import('../../app/shell/app-shell'),
    import('../../components/ui/toaster'),
  ]);
});

async function openCard() {
  renderApp('/reputation');
  return within(await screen.findByTestId('postmaster-reputation'));
}

describe('Reputation: Gmail reputation from Postmaster Tools', () => {
  it('offers to connect when nothing is connected', async () => {
    stubReputation([]);
    const card = await openCard();
    expect(await card.findByRole('button', { name: 'Connect Google Postmaster Tools' })).toBeInTheDocument();
  });

  it('says when this server cannot connect Google', async () => {
    stubReputation([], {
      'GET /api/postmaster/status': () => jsonResponse(makePostmasterStatus({ state: 'not_configured' })),
    });
    const card = await openCard();
    expect(await card.findByText(GOOGLE_NOT_CONFIGURED)).toBeInTheDocument();
  });

  it('shows each domain’s latest rating, its sending IPs and the last 30 days', async () => {
    const days = [
      makePostmasterDay({ domain: 'mail.example.com', date: '2025-01-27', domainReputation: 'HIGH' }),
      makePostmasterDay({ domain: 'mail.example.com', date: '2025-01-28', domainReputation: 'HIGH' }),
      makePostmasterDay({
        domain: 'mail.example.com',
        date: '2025-01-29',
        domainReputation: 'LOW',
        ipReputations: [
          { reputation: 'HIGH', ipCount: 2, sampleIps: [] },
          { reputation: 'BAD', ipCount: 1, sampleIps: ['203.0.113.9'] },
        ],
      }),
      makePostmasterDay({ domain: 'quiet.example.org', date: '2025-01-29', domainReputation: null, ipReputations: [] }),
    ];
    stubReputation([], {
      'GET /api/postmaster/status': () =>
        jsonResponse(connectedStatus({ domains: ['mail.example.com', 'quiet.example.org'] })),
      'GET /api/postmaster/stats': () => jsonResponse({ from: '2024-12-31', to: '2025-01-29', days }),
    });
    const card = await openCard();
    const rows = await card.findAllByTestId('postmaster-reputation-row');
    expect(rows.map((r) => r.getAttribute('data-domain'))).toEqual(['mail.example.com', 'quiet.example.org']);
    const first = within(rows[0]);
    expect(first.getByTestId('postmaster-domain-reputation')).toHaveTextContent('Low at Gmail');
    expect(first.getByTestId('postmaster-domain-reputation')).toHaveAttribute('data-tone', 'bad');
    expect(rows[0]).toHaveTextContent('Sending IPs:2 High · 1 Bad');
    expect(rows[0]).toHaveTextContent('Last 30 days:High 2 days · Low 1 day');
    expect(rows[0]).toHaveTextContent('As of:Jan 29, 2025');
    expect(within(rows[1]).getByTestId('postmaster-domain-reputation')).toHaveTextContent('Not rated by Gmail');
  });
});
