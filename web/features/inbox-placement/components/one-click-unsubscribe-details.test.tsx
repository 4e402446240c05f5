import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { OneClickUnsubscribeResult } from '@contracts/inbox-tests';
import { OneClickUnsubscribeDetails } from './one-click-unsubscribe-details';

const REDIRECT_REASON =
  'RFC 8058 3.1: "The mail sender MUST NOT return an HTTPS redirect, since redirected POST actions have historically not worked reliably, and many browsers have turned redirected HTTP POSTs into GETs."';

const redirectedToLogin: OneClickUnsubscribeResult = {
  outcome: 'requires_login',
  summary: 'Required a login: the link redirected the POST to a sign-in page (302).',
  rfcReason: REDIRECT_REASON,
  url: 'https://unsubscribe.brand.test/u?…',
  status: 302,
  durationMs: 1234,
  redirects: [{ status: 302, location: 'https://brand.test/account/login?…' }],
  hasListUnsubscribe: true,
  testedAt: '2026-11-29T10:00:00.000Z',
};

const facts = () => within(screen.getByTestId('analysis-one-click-unsubscribe'));

describe('OneClickUnsubscribeDetails', () => {
  it('shows the verdict in words, the link without its query, the status, the time, each redirect and the RFC reason', () => {
    render(<OneClickUnsubscribeDetails result={redirectedToLogin} />);
    expect(facts().getByText('Required a login')).toBeInTheDocument();
    expect(facts().getByText(redirectedToLogin.summary)).toBeInTheDocument();
    expect(facts().getByText('https://unsubscribe.brand.test/u?…')).toBeInTheDocument();
    expect(facts().getByText('302', { selector: 'dd' })).toBeInTheDocument();
    expect(facts().getByText('1,234 ms')).toBeInTheDocument();
    expect(facts().getByRole('listitem')).toHaveTextContent('302 to https://brand.test/account/login?…');
    expect(facts().getByText(REDIRECT_REASON)).toBeInTheDocument();
  });

  it('for a message that offers no one-click unsubscribe: says so, whether List-Unsubscribe is there, and nothing about a request', () => {
    render(
      <OneClickUnsubscribeDetails
        result={{
          outcome: 'not_offered',
          summary: 'Not offered: the message has no List-Unsubscribe header.',
          rfcReason: 'RFC 8058 3.1: a sender offering one-click unsubscribe puts an https link in List-Unsubscribe.',
          url: null,
          status: null,
          durationMs: null,
          redirects: [],
          hasListUnsubscribe: false,
          testedAt: null,
        }}
      />,
    );
    expect(facts().getByText('Not offered')).toBeInTheDocument();
    expect(facts().getByText('No')).toBeInTheDocument();
    expect(facts().queryByText('Status')).not.toBeInTheDocument();
    expect(facts().queryByText('Redirects')).not.toBeInTheDocument();
  });
});
