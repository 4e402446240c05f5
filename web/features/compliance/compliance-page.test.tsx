import { screen, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ComplianceRule, ComplianceScorecard } from '@contracts/compliance';
import {
  errorResponse,
  jsonResponse,
  makeUser,
  preloadSignedInFrame,
  renderApp,
  stubFetch,
} from '../../test/test-utils';

beforeAll(async () => {
  await Promise.all([import('./compliance-page'), preloadSignedInFrame()]);
});

const rule = (overrides: Partial<ComplianceRule>): ComplianceRule => ({
  id: 'gmail:spf-or-dkim',
  provider: 'gmail',
  requirement: 'spf-or-dkim',
  title: 'SPF or DKIM',
  wording: 'Set up SPF or DKIM email authentication for your sending domains.',
  sourceUrl: 'https://support.google.com/a/answer/81126',
  verdict: 'met',
  evidence: [
    {
      source: 'inbox-test',
      text: 'Test message of inbox test 12: SPF pass (brand.example), DKIM pass (d=brand.example).',
      at: '2025-03-03T10:00:00.000Z',
      testId: 12,
    },
  ],
  fix: null,
  ...overrides,
});

const SCORECARD: ComplianceScorecard = {
  domainId: 1,
  domain: 'brand.example',
  evaluatedAt: '2025-03-03T12:00:00.000Z',
  counts: { met: 1, notMet: 1, unknown: 1 },
  rules: [
    rule({}),
    rule({
      id: 'gmail-bulk:one-click-unsubscribe',
      provider: 'gmail-bulk',
      requirement: 'one-click-unsubscribe',
      title: 'One-click unsubscribe',
      wording:
        'Marketing messages and subscribed messages must support one-click unsubscribe, and include a clearly visible unsubscribe link in the message body.',
      verdict: 'not_met',
      evidence: [
        {
          source: 'inbox-test',
          text: 'Test message of inbox test 12: no passing DKIM signature covers both List-Unsubscribe and List-Unsubscribe-Post.',
          at: '2025-03-03T10:00:00.000Z',
          testId: 12,
        },
      ],
      fix: 'List both fields in the DKIM signature’s h= tag.',
    }),
    rule({
      id: 'yahoo:spam-rate',
      provider: 'yahoo',
      requirement: 'spam-rate',
      title: 'Spam complaint rate below 0.3 %',
      wording:
        'Keep your spam rate below 0.3%. Spam rate is calculated in our system based on mail delivered to the inbox',
      sourceUrl: 'https://senders.yahooinc.com/best-practices/',
      verdict: 'unknown',
      evidence: [{ source: 'complaints', text: 'No delivered events to Yahoo in the last 30 days.', at: null }],
      fix: 'Send your MTA or ESP events to InboxPulse.',
    }),
  ],
  smtpReplies: [
    {
      provider: 'gmail',
      code: '5.7.26',
      meaning: 'The sender is unauthenticated: neither SPF nor DKIM passed.',
      requirement: 'spf-or-dkim',
      count: 3,
      lastSeenAt: '2025-03-02T18:40:00.000Z',
      example: '550-5.7.26 This mail has been blocked because the sender is unauthenticated. - gsmtp',
    },
  ],
};

const stub = (answer: () => Response | Promise<Response>) =>
  stubFetch({
    'GET /api/user': () => jsonResponse(makeUser()),
    'GET /api/alerts': () => jsonResponse([]),
    'GET /api/domains/1/compliance': answer,
  });

describe('Compliance page', () => {
  it('shows a spinner while the scorecard loads, under the route’s title and trail', async () => {
    stub(() => new Promise<Response>(() => {}));
    renderApp('/domains/1/compliance');
    expect(await screen.findByText('Judging the rules')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'Bulk-Sender Compliance' })).toBeInTheDocument();
    const trail = within(screen.getByRole('navigation', { name: 'Breadcrumb' }));
    expect(trail.getByRole('link', { name: 'Domains' })).toHaveAttribute('href', '/domains');
  });

  it('shows each provider’s rules with the verdict, the provider’s words and page, the dated evidence and the fix', async () => {
    stub(() => jsonResponse(SCORECARD));
    renderApp('/domains/1/compliance');
    const summary = await screen.findByTestId('compliance-summary');
    expect(summary).toHaveTextContent('1 not met · 1 met · 1 unknown');
    const trail = within(screen.getByRole('navigation', { name: 'Breadcrumb' }));
    expect(trail.getByText('brand.example')).toBeInTheDocument();

    const oneClick = screen.getByText('One-click unsubscribe').closest('li')!;
    expect(oneClick).toHaveAttribute('data-verdict', 'not_met');
    const row = within(oneClick as HTMLElement);
    expect(row.getByText('Not met')).toBeInTheDocument();
    expect(
      row.getByText(/Marketing messages and subscribed messages must support one-click unsubscribe/),
    ).toBeInTheDocument();
    expect(row.getByRole('link', { name: 'Source' })).toHaveAttribute(
      'href',
      'https://support.google.com/a/answer/81126',
    );
    expect(
      row.getByText(/no passing DKIM signature covers both List-Unsubscribe and List-Unsubscribe-Post/),
    ).toBeInTheDocument();
    expect(row.getByRole('link', { name: 'Open inbox tests' })).toHaveAttribute('href', '/inbox-placement');
    expect(row.getByText('List both fields in the DKIM signature’s h= tag.')).toBeInTheDocument();

    const gmailBulk = screen.getByRole('heading', { name: 'Gmail (more than 5,000 a day)' });
    expect(gmailBulk).toBeInTheDocument();
    const spam = within(screen.getByText('Spam complaint rate below 0.3 %').closest('li') as HTMLElement);
    expect(spam.getByText('Unknown')).toBeInTheDocument();
    expect(spam.getByText('No delivered events to Yahoo in the last 30 days.')).toBeInTheDocument();
    // A met rule has no fix.
    const met = within(screen.getByText('SPF or DKIM', { selector: 'h3' }).closest('li') as HTMLElement);
    expect(met.getByText('Met')).toBeInTheDocument();
    expect(met.queryByText(/^Fix:/)).not.toBeInTheDocument();
  });

  it('lists the SMTP replies citing a rule with their count and last date, linked to the rule', async () => {
    stub(() => jsonResponse(SCORECARD));
    renderApp('/domains/1/compliance');
    const replies = within(await screen.findByTestId('compliance-smtp-replies'));
    expect(replies.getByText('5.7.26')).toBeInTheDocument();
    expect(replies.getByText('3')).toBeInTheDocument();
    expect(replies.getByRole('link', { name: 'SPF or DKIM' })).toHaveAttribute('href', '#gmail:spf-or-dkim');
  });

  it('says a domain that is not the user’s was not found, and a failure with a way to try again', async () => {
    stub(() => errorResponse(404, 'not_found', 'Domain not found'));
    const first = renderApp('/domains/1/compliance');
    expect(await screen.findByTestId('compliance-not-found')).toHaveTextContent('Domain not found');
    first.unmount();
    stub(() => errorResponse(500, 'internal', 'Something went wrong on our side. Please try again.'));
    renderApp('/domains/1/compliance');
    expect(await screen.findByText('Something went wrong on our side. Please try again.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });
});
