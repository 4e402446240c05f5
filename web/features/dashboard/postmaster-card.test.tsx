import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { GOOGLE_NOT_CONFIGURED } from '@contracts/postmaster';
import { connectedStatus, makePostmasterDay, makePostmasterStatus } from '../../test/postmaster-fixtures';
import { errorResponse, jsonResponse, preloadSignedInFrame, renderApp } from '../../test/test-utils';
import { makeDomain, stubDashboard } from './test/fixtures';

// The dashboard's Gmail Postmaster Tools card: the way to connect, and Gmail's figures once connected.

beforeAll(async () => {
  await Promise.all([import('./dashboard-page'), preloadSignedInFrame()]);
});
afterEach(() => vi.unstubAllGlobals());

async function openCard() {
  renderApp('/dashboard');
  return within(await screen.findByTestId('postmaster-card'));
}

const stats = (days: ReturnType<typeof makePostmasterDay>[]) => ({ from: '2025-01-01', to: '2025-01-30', days });

describe('Dashboard: Gmail Postmaster Tools', () => {
  it('says honestly that nothing is connected, and the Connect button goes to Google', async () => {
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign });
    const fetchMock = stubDashboard({
      domains: [makeDomain()],
      extra: {
        'POST /api/integrations/google-postmaster/connect': () =>
          jsonResponse({
            authorizationUrl: 'https://accounts.google.com/o/oauth2/v2/auth?client_id=x&state=y',
            expiresInSeconds: 600,
          }),
      },
    });
    const card = await openCard();
    expect(await card.findByText('Google Postmaster Tools not connected')).toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([url]) => String(url).startsWith('/api/postmaster/stats'))).toBe(false);
    await userEvent.setup().click(card.getByRole('button', { name: 'Connect Google Postmaster Tools' }));
    await waitFor(() =>
      expect(assign).toHaveBeenCalledWith('https://accounts.google.com/o/oauth2/v2/auth?client_id=x&state=y'),
    );
  });

  it('tells the server’s words when Google sign-in is not configured', async () => {
    stubDashboard({ domains: [makeDomain()], postmaster: makePostmasterStatus({ state: 'not_configured' }) });
    const card = await openCard();
    expect(await card.findByText(GOOGLE_NOT_CONFIGURED)).toBeInTheDocument();
    expect(card.queryByRole('button', { name: /Connect/ })).not.toBeInTheDocument();
  });

  it('shows the toast with the server’s refusal when connecting fails', async () => {
    stubDashboard({
      domains: [makeDomain()],
      extra: {
        'POST /api/integrations/google-postmaster/connect': () =>
          errorResponse(503, 'unavailable', GOOGLE_NOT_CONFIGURED),
      },
    });
    const card = await openCard();
    await userEvent.setup().click(await card.findByRole('button', { name: 'Connect Google Postmaster Tools' }));
    expect(await screen.findAllByText(GOOGLE_NOT_CONFIGURED)).not.toHaveLength(0);
  });

  it('shows the spam rate against Google’s 0.1% and 0.3%, authentication, TLS, reputation and delivery errors in words', async () => {
    const days = [
      makePostmasterDay({ date: '2025-01-28', userReportedSpamRatio: 0.0035 }),
      makePostmasterDay({
        date: '2025-01-29',
        userReportedSpamRatio: 0.0018,
        spfSuccessRatio: 0.93,
        dmarcSuccessRatio: 0.81,
        domainReputation: 'MEDIUM',
        deliveryErrors: [
          { errorClass: 'PERMANENT_ERROR', errorType: 'BAD_DMARC_POLICY', errorRatio: 0.0007 },
          { errorClass: 'TEMPORARY_ERROR', errorType: 'RATE_LIMIT_EXCEEDED', errorRatio: 0.004 },
        ],
      }),
    ];
    stubDashboard({ domains: [makeDomain()], postmaster: connectedStatus(), postmasterStats: stats(days) });
    const card = await openCard();
    const spam = within(await card.findByTestId('postmaster-spam-rate'));
    expect(spam.getByText('0.18%')).toHaveAttribute('data-tone', 'warn');
    expect(spam.getByText('Above Google’s 0.1% target')).toBeInTheDocument();
    expect(spam.getByRole('meter')).toHaveAttribute('aria-valuenow', '36');
    expect(spam.getByText(/1 of the last 2 days with data were at or above 0\.3%/)).toBeInTheDocument();
    expect(card.getByTestId('postmaster-spf')).toHaveTextContent('93%');
    expect(within(card.getByTestId('postmaster-spf')).getByText('93%')).toHaveAttribute('data-tone', 'warn');
    expect(card.getByTestId('postmaster-dkim')).toHaveTextContent('99.5%');
    expect(within(card.getByTestId('postmaster-dmarc')).getByText('81%')).toHaveAttribute('data-tone', 'bad');
    expect(card.getByTestId('postmaster-tls')).toHaveTextContent('100%');
    expect(card.getByText('Medium')).toHaveAttribute('data-tone', 'warn');
    const errors = within(card.getByTestId('postmaster-delivery-errors')).getAllByRole('listitem');
    expect(errors.map((li) => li.textContent)).toEqual([
      'Rate limited: Gmail saw a suspiciously high sending rate and limited it for now0.4% deferred',
      'Failed DMARC with a reject policy0.07% rejected',
    ]);
    expect(card.getByTestId('postmaster-as-of')).toHaveTextContent('Jan 29, 2025');
  });

  it('lets the user pick among several domains', async () => {
    const days = [
      makePostmasterDay({ domain: 'a.example.com', userReportedSpamRatio: 0.0001 }),
      makePostmasterDay({ domain: 'b.example.com', userReportedSpamRatio: 0.004 }),
    ];
    stubDashboard({
      domains: [makeDomain()],
      postmaster: connectedStatus({ domains: ['a.example.com', 'b.example.com'] }),
      postmasterStats: stats(days),
    });
    const card = await openCard();
    expect(await card.findByText('0.01%')).toHaveAttribute('data-tone', 'good');
    await userEvent.setup().selectOptions(card.getByRole('combobox'), 'b.example.com');
    expect(await card.findByText('0.4%')).toHaveAttribute('data-tone', 'bad');
    expect(card.getByText('At or above Google’s 0.3% limit')).toBeInTheDocument();
  });

  it('explains an empty import', async () => {
    stubDashboard({ domains: [makeDomain()], postmaster: connectedStatus(), postmasterStats: stats([]) });
    const card = await openCard();
    expect(await card.findByTestId('postmaster-no-data')).toHaveTextContent(/substantial volume of mail/);
  });

  it('asks for a reconnect when Google revoked the access', async () => {
    const lastError =
      'Google no longer gives InboxPulse access to Postmaster Tools: Google said: Token has been expired or revoked. Connect Google Postmaster Tools again.';
    stubDashboard({
      domains: [makeDomain()],
      postmaster: connectedStatus({ state: 'needs_reconnect', lastError }),
      postmasterStats: stats([makePostmasterDay()]),
    });
    const card = await openCard();
    expect(await card.findByText(lastError)).toBeInTheDocument();
    expect(card.getByRole('button', { name: 'Reconnect Google Postmaster Tools' })).toBeInTheDocument();
    expect(await card.findByTestId('postmaster-spam-rate')).toBeInTheDocument();
  });
});
