import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import type { InboxTest } from '@contracts/inbox-tests';
import { PLAN_FEATURE_SETS, PLAN_LIMITS, type PlanId, type UsageResponse } from '@contracts/plans';
import { jsonResponse, preloadSignedInFrame, renderApp } from '../../test/test-utils';
import { makeInboxTest, stubInboxPlacement } from './test/fixtures';

// The inbox-test quota on Inbox Placement (ADR 043): the number the server enforces (tests started
// this UTC month, deleted ones included), shown before the limit is reached.

beforeAll(async () => {
  await Promise.all([import('./inbox-placement-page'), preloadSignedInFrame()]);
});

function usage(plan: PlanId, inboxTestsThisMonth: number): UsageResponse {
  return {
    plan,
    limits: PLAN_LIMITS[plan],
    usage: { domains: 1, inboxTestsThisMonth, emailsThisMonth: 0, alerts: 0 },
    features: [...PLAN_FEATURE_SETS[plan]],
    refusedThisMonth: [],
  };
}

async function openWith(answer: () => UsageResponse, extra = {}) {
  stubInboxPlacement({ extra: { 'GET /api/usage': () => jsonResponse(answer()), ...extra } });
  renderApp('/inbox-placement');
  await screen.findByTestId('inbox-placement-page');
}

describe('Inbox placement: the month’s inbox tests', () => {
  it('shows "3 of 10 used" on Free before the limit, and that deleted tests still count', async () => {
    await openWith(() => usage('free', 3));
    const quota = await screen.findByTestId('inbox-test-quota');
    expect(quota).toHaveTextContent('Inbox tests this month: 3 of 10 used');
    expect(quota).toHaveTextContent(/Deleted tests still count\. The count starts again on \w{3} 1, \d{4}\./);
  });

  it('counts the test just created', async () => {
    let used = 3;
    let tests: InboxTest[] = [];
    const created = makeInboxTest({ id: 5 });
    stubInboxPlacement({
      tests: () => tests,
      extra: {
        'GET /api/usage': () => jsonResponse(usage('free', used)),
        'POST /api/inbox-tests': () => {
          used = 4;
          tests = [created];
          return jsonResponse(created, 201);
        },
      },
    });
    renderApp('/inbox-placement');
    expect(await screen.findByTestId('inbox-test-quota')).toHaveTextContent('3 of 10 used');
    const button = screen.getByTestId('create-test');
    await waitFor(() => expect(button).toBeEnabled());
    await userEvent.setup().click(button);
    await waitFor(() => expect(screen.getByTestId('inbox-test-quota')).toHaveTextContent('4 of 10 used'));
  });

  it('at the limit, says the month’s tests are used and where to get more', async () => {
    await openWith(() => usage('free', 10));
    const quota = await screen.findByTestId('inbox-test-quota');
    expect(quota).toHaveTextContent('Inbox tests this month: 10 of 10 used');
    expect(quota).toHaveTextContent('Your Free plan’s inbox tests for this month are used up.');
    expect(screen.getByRole('link', { name: 'Upgrade to Professional' })).toHaveAttribute('href', '/pricing');
  });

  it('says nothing of a quota on a plan without one', async () => {
    await openWith(() => usage('enterprise', 40));
    await screen.findByText('Your inbox tests');
    await waitFor(() => expect(screen.queryByText(/Inbox tests this month/)).not.toBeInTheDocument());
  });
});
