import { screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { PLAN_FEATURE_SETS, PLAN_LIMITS, type EmailRefusal, type PlanId, type UsageResponse } from '@contracts/plans';
import { jsonResponse, preloadSignedInFrame, renderApp } from '../../test/test-utils';
import { stubIntegrations } from './test/fixtures';

// What the e-mail allowance refused this month (ADR 043), on the Integrations screen: the server
// keeps it per source (GET /api/usage, refusedThisMonth); the page says which, how many and when.

beforeAll(async () => {
  await Promise.all([import('./integrations-page'), preloadSignedInFrame()]);
});

const LAST = '2026-11-29T04:30:00.000Z';
const lastShown = new Date(LAST).toLocaleString('en-US', {
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
});

function usage(plan: PlanId, emailsThisMonth: number, refusedThisMonth: EmailRefusal[]): UsageResponse {
  return {
    plan,
    limits: PLAN_LIMITS[plan],
    usage: { domains: 1, inboxTestsThisMonth: 0, emailsThisMonth, alerts: 0 },
    features: [...PLAN_FEATURE_SETS[plan]],
    refusedThisMonth,
  };
}

function openWith(answer: UsageResponse, path = '/integrations') {
  stubIntegrations([], { 'GET /api/usage': () => jsonResponse(answer) });
  renderApp(path);
}

describe('Integrations: events refused for the plan’s e-mails a month', () => {
  it('says which sources were refused, how many events, when, the month’s count and where to upgrade', async () => {
    openWith(
      usage('free', 360_000, [
        { source: 'api', events: 1, requests: 1, lastAt: LAST },
        { source: 'postfix', events: 6_000, requests: 6, lastAt: LAST },
      ]),
    );
    const notice = await screen.findByTestId('email-quota-notice');
    expect(notice).toHaveTextContent('Delivery data refused: your Free plan’s emails for this month are used up');
    expect(notice).toHaveTextContent(
      'Your Free plan allows 10,000 emails per month and 360,000 were counted this month (UTC).',
    );
    expect(notice).toHaveTextContent(`Postfix: 6,000 delivery events in 6 requests, the last on ${lastShown}`);
    expect(notice).toHaveTextContent(`InboxPulse API: 1 delivery event in 1 request, the last on ${lastShown}`);
    expect(within(notice).getByRole('link', { name: 'Upgrade to Professional' })).toHaveAttribute('href', '/pricing');
  });

  it('repeats the refusal on the MTA’s own card', async () => {
    openWith(
      usage('free', 360_000, [{ source: 'postfix', events: 3, requests: 1, lastAt: LAST }]),
      '/integrations?tab=mta',
    );
    const card = within(await screen.findByTestId('mta-card-postfix'));
    expect(await card.findByTestId('mta-quota-refused')).toHaveTextContent(
      `3 delivery events refused this month for your plan’s e-mail limit, the last on ${lastShown}`,
    );
    expect(within(screen.getByTestId('mta-card-kumo')).queryByTestId('mta-quota-refused')).not.toBeInTheDocument();
  });

  it('shows no notice when nothing was refused', async () => {
    openWith(usage('free', 9_000, []));
    await screen.findByTestId('installed-count');
    await waitFor(() => expect(screen.getByTestId('installed-count')).toHaveTextContent(/installed/));
    expect(screen.queryByTestId('email-quota-notice')).not.toBeInTheDocument();
  });
});
