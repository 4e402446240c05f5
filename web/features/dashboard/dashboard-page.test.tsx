import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import {
  errorResponse,
  jsonResponse,
  makeUser,
  preloadSignedInFrame,
  renderApp,
  settled,
  stubFetch,
  stubResizeObserver,
} from '../../test/test-utils';
import {
  emptyOverview,
  makeAlert,
  makeDomain,
  makeSyncedIntegration,
  makeMetric,
  makeOverview,
  makeTest,
  overviewOfMetrics,
  stubDashboard,
} from './test/fixtures';

// Load the lazy chunks once up front, so the first test does not spend its wait on module loading.
beforeAll(async () => {
  await Promise.all([import('./dashboard-page'), preloadSignedInFrame()]);
});

const HOUR = 60 * 60 * 1000;
const hoursAgo = (h: number) => new Date(Date.now() - h * HOUR).toISOString();

async function openDashboard() {
  const view = renderApp('/dashboard');
  await screen.findByTestId('dashboard-source-select');
  return view;
}

/** Deleting asks first: the confirmation dialog's Delete button. */
async function confirmDeletion(user: ReturnType<typeof userEvent.setup>, question: RegExp) {
  const dialog = within(await screen.findByRole('alertdialog'));
  expect(dialog.getByText(question)).toBeInTheDocument();
  await user.click(dialog.getByRole('button', { name: 'Delete' }));
}

async function choose(source: string) {
  const user = userEvent.setup();
  await user.selectOptions(await screen.findByTestId('dashboard-source-select'), source);
  return user;
}

describe('Dashboard: the answer to a drop (issue 19)', () => {
  const drop = (at: string, summary: string) => ({
    id: `placement:gmail:${at}`,
    series: 'placement:gmail',
    label: 'Inbox placement at Gmail',
    at,
    before: 92,
    after: 61,
    summary,
    causes: [],
  });
  const newest =
    'Inbox placement at Gmail fell from 92% to 61% on 3 March; most likely cause: listed on Spamhaus ZEN since 2 March, 4 h before';

  it("shows each domain's newest drop of the last 7 days with a link to its timeline", async () => {
    const mock = stubDashboard({
      domains: [makeDomain(), makeDomain({ id: 2, domain: 'quiet.example.org' })],
      extra: {
        'GET /api/domains/1/diagnosis': () =>
          jsonResponse({ drops: [drop(hoursAgo(30), newest), drop(hoursAgo(100), 'An older drop')] }),
        'GET /api/domains/2/diagnosis': () => jsonResponse({ drops: [] }),
      },
    });
    await openDashboard();
    const card = within(await screen.findByTestId('dashboard-drop-answers'));
    expect(card.getByText(newest)).toBeInTheDocument();
    expect(card.queryByText('An older drop')).not.toBeInTheDocument();
    expect(card.queryByText(/quiet\.example\.org/)).not.toBeInTheDocument();
    expect(card.getByRole('link', { name: 'View timeline of example.com' })).toHaveAttribute(
      'href',
      '/domains/1/timeline',
    );
    expect(mock.mock.calls.map(([input]) => String(input))).toContain('/api/domains/1/diagnosis?days=7');
  });

  it('shows nothing at all when no domain had a drop in the last 7 days, or the diagnosis failed', async () => {
    stubDashboard({
      domains: [makeDomain(), makeDomain({ id: 2, domain: 'broken.example.org' })],
      extra: {
        'GET /api/domains/1/diagnosis': () => jsonResponse({ drops: [drop(hoursAgo(8 * 24), 'Eight days ago')] }),
        'GET /api/domains/2/diagnosis': () => errorResponse(500, 'internal', 'Something went wrong on our side'),
      },
    });
    const app = await openDashboard();
    await settled(app);
    expect(screen.queryByTestId('dashboard-drop-answers')).not.toBeInTheDocument();
    expect(screen.queryByText('Eight days ago')).not.toBeInTheDocument();
  });
});

describe('Dashboard: loading and welcome', () => {
  it('shows skeletons while the data loads', async () => {
    stubDashboard({ overview: () => new Promise<Response>(() => {}) as unknown as Response });
    renderApp('/dashboard');
    expect(await screen.findByTestId('dashboard-skeleton')).toBeInTheDocument();
    expect(screen.getByTestId('dashboard-page')).toContainElement(screen.getByTestId('dashboard-skeleton'));
  });

  it('welcomes a new account (empty overview, no domains, no alerts) with Add Domain and Run Inbox Test', async () => {
    stubDashboard({ overview: emptyOverview });
    renderApp('/');
    const welcome = within(await screen.findByTestId('dashboard-welcome'));
    expect(welcome.getByRole('link', { name: 'Add Domain' })).toHaveAttribute('href', '/domains');
    expect(welcome.getByRole('link', { name: 'Run Inbox Test' })).toHaveAttribute('href', '/inbox-placement');
    expect(screen.queryByTestId('dashboard-source-select')).not.toBeInTheDocument();
    expect(screen.queryByTestId('dashboard-recent-alerts')).not.toBeInTheDocument();
  });

  it('shows no welcome card once there is an alert or a domain, even when the overview is empty', async () => {
    stubDashboard({ overview: emptyOverview, alerts: [makeAlert()] });
    const first = await openDashboard();
    expect(screen.queryByTestId('dashboard-welcome')).not.toBeInTheDocument();
    expect(screen.getByTestId('dashboard-recent-alerts')).toBeInTheDocument();
    first.unmount();

    stubDashboard({ overview: emptyOverview, domains: [makeDomain()] });
    await openDashboard();
    expect(screen.queryByTestId('dashboard-welcome')).not.toBeInTheDocument();
  });

  it('shows no welcome card when the overview is not empty', async () => {
    stubDashboard({ overview: makeOverview({ isEmpty: false }) });
    await openDashboard();
    expect(screen.queryByTestId('dashboard-welcome')).not.toBeInTheDocument();
    expect(screen.getByTestId('dashboard-view-overview')).toBeInTheDocument();
  });
});

describe('Dashboard: data sources', () => {
  it('disables sources without data and marks them Not configured; overview is the default', async () => {
    stubDashboard({ integrations: [makeSyncedIntegration({ status: 'inactive' })] });
    await openDashboard();
    const select = screen.getByTestId('dashboard-source-select') as HTMLSelectElement;
    expect(select.value).toBe('overview');
    const options = within(select).getAllByRole('option') as HTMLOptionElement[];
    expect(options.map((o) => [o.value, o.textContent, o.disabled])).toEqual([
      ['overview', 'Combined Overview', false],
      ['domain-health', 'Domain Health (Not configured)', true],
      ['inbox-tests', 'Inbox Placement Tests (Not configured)', true],
      ['esp-data', 'ESP/MTA Data (Not configured)', true],
    ]);
    expect(screen.getByTestId('dashboard-source-status')).toHaveTextContent('Active');
  });

  it('says Inactive for an overview without data', async () => {
    stubDashboard({ overview: emptyOverview, domains: [makeDomain({ status: 'pending' })] });
    await openDashboard();
    expect(screen.getByTestId('dashboard-source-status')).toHaveTextContent('Inactive');
  });

  it('enables each source once it has data and switches views', async () => {
    stubDashboard({
      domains: [makeDomain()],
      tests: [makeTest()],
      integrations: [makeSyncedIntegration()],
    });
    await openDashboard();
    const select = screen.getByTestId('dashboard-source-select');
    for (const option of within(select).getAllByRole('option') as HTMLOptionElement[])
      expect(option.disabled).toBe(false);
    await choose('domain-health');
    expect(await screen.findByTestId('dashboard-view-domain-health')).toBeInTheDocument();
    expect(screen.queryByTestId('dashboard-view-overview')).not.toBeInTheDocument();
    expect(screen.getByText(/SPF, DKIM and DMARC authentication and health/)).toBeInTheDocument();
    await choose('inbox-tests');
    expect(await screen.findByTestId('dashboard-view-inbox-tests')).toBeInTheDocument();
    await choose('esp-data');
    expect(await screen.findByTestId('dashboard-view-esp-data')).toBeInTheDocument();
    expect(screen.getByTestId('dashboard-recent-alerts')).toBeInTheDocument();
  });
});

describe('Dashboard: overview', () => {
  it('labels the health score at 90 Excellent and 89.9 Good, with the bars and counters', async () => {
    stubDashboard({
      overview: makeOverview({ healthScore: 90, counts: { domains: 3, inboxTests: 12, activeIntegrations: 2 } }),
    });
    const first = await openDashboard();
    expect(screen.getByTestId('health-score')).toHaveTextContent('90');
    expect(screen.getByTestId('health-score-label')).toHaveTextContent('Excellent');
    expect(screen.getByTestId('improvement-tip')).toHaveTextContent(/excellent/i);
    expect(screen.getByRole('meter', { name: 'Domain Reputation' })).toHaveAttribute('data-tone', 'good');
    expect(screen.getByRole('meter', { name: 'IP Reputation' })).toHaveAttribute('data-tone', 'warn');
    expect(screen.getByRole('meter', { name: 'Authentication' })).toHaveAttribute('data-tone', 'bad');
    expect(screen.getByRole('meter', { name: 'Deliverability' })).toHaveAttribute('aria-valuetext', '91.5%');
    expect(screen.getByTestId('count-domains')).toHaveTextContent('3');
    expect(screen.getByTestId('count-inbox-tests')).toHaveTextContent('12');
    expect(screen.getByTestId('count-active-integrations')).toHaveTextContent('2');
    const actions = screen.getByRole('heading', { name: 'Quick Actions' }).closest('div')!.parentElement!;
    expect(within(actions).getByRole('link', { name: 'Add Domain' })).toHaveAttribute('href', '/domains');
    expect(within(actions).getByRole('link', { name: 'Run Inbox Test' })).toHaveAttribute('href', '/inbox-placement');
    expect(within(actions).getByRole('link', { name: 'Connect ESP' })).toHaveAttribute('href', '/integrations');
    first.unmount();

    stubDashboard({ overview: makeOverview({ healthScore: 89.9 }) });
    await openDashboard();
    expect(screen.getByTestId('health-score')).toHaveTextContent('89.9');
    expect(screen.getByTestId('health-score-label')).toHaveTextContent('Good');
  });

  it('advises improvement below 80 and shows No Data for a missing score', async () => {
    stubDashboard({ overview: makeOverview({ healthScore: 79.9 }) });
    const first = await openDashboard();
    expect(screen.getByTestId('health-score-label')).toHaveTextContent('Fair');
    expect(screen.getByTestId('improvement-tip')).toHaveTextContent(/Improve your email authentication/);
    first.unmount();

    stubDashboard({
      overview: makeOverview({
        healthScore: null,
        ipReputation: null,
        inboxRate: null,
        bounceRate: null,
        complaintRate: null,
      }),
    });
    await openDashboard();
    expect(screen.getByTestId('health-score')).toHaveTextContent('No Data');
    expect(screen.getByRole('meter', { name: 'IP Reputation' })).toHaveAttribute('aria-valuetext', 'No Data');
    expect(screen.getByTestId('inbox-rate-card')).toHaveTextContent('No Data');
    expect(screen.getByTestId('bounce-rate-card')).toHaveTextContent('No Data');
    expect(screen.getByTestId('complaint-rate-card')).toHaveTextContent('No Data');
  });

  it.each([
    ['90.00', '89.9'],
    ['70.00', '69.9'],
  ])('inbox rate boundary %s vs %s', async (at, below) => {
    stubDashboard({ overview: makeOverview({ inboxRate: at }) });
    const first = await openDashboard();
    const atLabel = within(screen.getByTestId('inbox-rate-card')).getByText(/Excellent|Good|Poor/).textContent;
    first.unmount();
    stubDashboard({ overview: makeOverview({ inboxRate: below }) });
    await openDashboard();
    const belowLabel = within(screen.getByTestId('inbox-rate-card')).getByText(/Excellent|Good|Poor/).textContent;
    expect([atLabel, belowLabel]).toEqual(at === '90.00' ? ['Excellent', 'Good'] : ['Good', 'Poor']);
  });

  it('bounce rate: 2 Excellent, 2.1 Acceptable, 5.1 High, rated as shown (one decimal)', async () => {
    for (const [rate, text] of [
      ['2.00', '2%Excellent'],
      ['2.04', '2%Excellent'], // shown as 2%, so rated as 2%
      ['2.10', '2.1%Acceptable'],
      ['5.00', '5%Acceptable'],
      ['5.10', '5.1%High'],
    ]) {
      stubDashboard({ overview: makeOverview({ bounceRate: rate }) });
      const view = await openDashboard();
      expect(screen.getByTestId('bounce-rate-card')).toHaveTextContent(text);
      view.unmount();
    }
  });

  it('writes scores and percentages in one style: at most one decimal, no trailing zeros', async () => {
    stubDashboard({
      overview: makeOverview({
        healthScore: 33.333,
        domainReputation: 100,
        authenticationScore: 66.6667,
        inboxRate: '100.00',
      }),
    });
    await openDashboard();
    expect(screen.getByTestId('health-score')).toHaveTextContent(/^33\.3$/);
    expect(screen.getByRole('meter', { name: 'Domain Reputation' })).toHaveAttribute('aria-valuetext', '100/100');
    expect(screen.getByRole('meter', { name: 'Authentication' })).toHaveAttribute('aria-valuetext', '66.7/100');
    expect(screen.getByRole('meter', { name: 'Deliverability' })).toHaveAttribute('aria-valuetext', '100%');
    expect(screen.getByTestId('inbox-rate-card')).toHaveTextContent('100%Excellent');
  });

  it('complaint rate: 0.1 Excellent, 0.3 Acceptable, above High; bar 10x the percent capped at 100', async () => {
    for (const [rate, text, width] of [
      ['0.10', '0.1%Excellent', '1'],
      ['0.11', '0.11%Acceptable', '1'],
      ['0.30', '0.3%Acceptable', '3'],
      ['0.31', '0.31%High', '3'],
      ['9.99', '9.99%High', '100'],
      ['12.00', '12%High', '100'],
    ]) {
      stubDashboard({ overview: makeOverview({ complaintRate: rate }) });
      const view = await openDashboard();
      const card = screen.getByTestId('complaint-rate-card');
      expect(card).toHaveTextContent(text);
      expect(within(card).getByRole('meter')).toHaveAttribute('aria-valuenow', width);
      view.unmount();
    }
  });

  it('toasts Session Expired when the overview answers 401', async () => {
    stubDashboard({ overview: () => errorResponse(401, 'unauthorized', 'Please sign in to continue') });
    renderApp('/dashboard');
    expect(await screen.findByText('Session Expired')).toBeInTheDocument();
    expect(screen.getByText('Please log in again to continue.')).toBeInTheDocument();
  });

  it('shows the login screen once the expired session is confirmed, keeping the Session Expired toast', async () => {
    let userCalls = 0;
    stubDashboard({
      overview: () => errorResponse(401, 'unauthorized', 'Please sign in to continue'),
      extra: {
        'GET /api/user': () =>
          ++userCalls === 1
            ? jsonResponse(makeUser())
            : errorResponse(401, 'unauthorized', 'Please sign in to continue'),
      },
    });
    renderApp('/dashboard');
    expect(await screen.findByTestId('login-form')).toBeInTheDocument();
    // The toaster is a lazy chunk: the first toast of a run can show a moment after the login screen.
    expect(await screen.findByText('Session Expired')).toBeInTheDocument();
    expect(screen.queryByText('Authentication Required')).not.toBeInTheDocument();
  });

  it('logging out from the dashboard shows no authentication toast', async () => {
    stubDashboard({ extra: { 'POST /api/logout': () => jsonResponse({ message: 'Logged out' }) } });
    const app = await openDashboard();
    await userEvent.setup().click(screen.getByTestId('logout-button'));
    expect(await screen.findByRole('heading', { level: 1, name: 'InboxPulse' })).toBeInTheDocument();
    await settled(app);
    expect(screen.queryByText('Authentication Required')).not.toBeInTheDocument();
  });

  it('offers to retry when the overview fails for another reason', async () => {
    let fail = true;
    stubDashboard({
      overview: () => (fail ? errorResponse(500, 'internal', 'Something went wrong') : jsonResponse(makeOverview())),
    });
    await openDashboard();
    expect(await screen.findByText('Your overview could not be loaded')).toBeInTheDocument();
    fail = false;
    await userEvent.setup().click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByTestId('health-score')).toHaveTextContent('85');
  });
});

describe('Dashboard: advanced analytics', () => {
  it('on the free plan is an upgrade card to the Professional plan and never asks for trends', async () => {
    const fetchMock = stubDashboard({ user: makeUser({ subscriptionPlan: 'free' }) });
    await openDashboard();
    const locked = within(await screen.findByTestId('advanced-analytics-locked'));
    expect(locked.getByText('Requires Professional plan')).toBeInTheDocument();
    expect(locked.getByRole('link', { name: 'Upgrade' })).toHaveAttribute('href', '/pricing?plan=professional');
    expect(locked.getByRole('link', { name: 'Compare Plans' })).toHaveAttribute(
      'href',
      '/pricing?highlight=professional',
    );
    expect(screen.queryByTestId('advanced-analytics')).not.toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([url]) => String(url).startsWith('/api/dashboard/trends'))).toBe(false);
  });

  it('shows the plan and an honest empty state when there are no trends', async () => {
    stubDashboard({ user: makeUser({ subscriptionPlan: 'professional' }) });
    await openDashboard();
    const card = within(await screen.findByTestId('advanced-analytics'));
    expect(card.getByText(/Professional Plan/)).toBeInTheDocument();
    expect(await card.findByTestId('trends-empty')).toHaveTextContent('No trend data for the last 30 days yet');
  });

  it('draws the trends and switches the period', async () => {
    stubResizeObserver();
    const fetchMock = stubDashboard({
      user: makeUser({ subscriptionPlan: 'professional' }),
      trends: {
        days: 30,
        inboxRate: [{ date: '2025-06-01', value: 88 }],
        deliveryRate: [{ date: '2025-06-01', value: 99.1 }],
        bounceRate: [{ date: '2025-06-02', value: 0.8 }],
        complaintRate: [],
      },
    });
    await openDashboard();
    expect(await screen.findByTestId('trend-charts')).toHaveTextContent('Inbox rate 88% on 2025-06-01');
    await userEvent.setup().click(screen.getByRole('button', { name: '90 days' }));
    await waitFor(() =>
      expect(fetchMock.mock.calls.some(([url]) => String(url) === '/api/dashboard/trends?days=90')).toBe(true),
    );
    expect(screen.getByRole('button', { name: '90 days' })).toHaveAttribute('aria-pressed', 'true');
  });
});

describe('Dashboard: domain health', () => {
  it('shows the scores, counts and each domain with its completeness and records', async () => {
    stubDashboard({
      domains: [
        makeDomain({ id: 1, domain: 'good.example' }),
        makeDomain({ id: 2, domain: 'partial.example', status: 'warning', dmarcStatus: 'invalid' }),
        makeDomain({
          id: 3,
          domain: 'bare.example',
          status: 'error',
          spfRecord: null,
          spfStatus: 'missing',
          dkimRecord: null,
          dkimStatus: null,
          dmarcRecord: null,
          dmarcStatus: null,
        }),
        makeDomain({ id: 4, domain: 'one.example', status: 'pending', dkimStatus: 'invalid', dmarcStatus: 'invalid' }),
      ],
    });
    await openDashboard();
    await choose('domain-health');
    expect(screen.getByTestId('domain-health-score')).toHaveTextContent('25%');
    expect(screen.getByTestId('domain-auth-score')).toHaveTextContent('25%');
    expect(screen.getByTestId('domain-total')).toHaveTextContent('4');
    expect(screen.getByTestId('domain-total')).toHaveTextContent('1 healthy · 2 with issues');
    expect(screen.getByTestId('domain-row-1')).toHaveTextContent('Complete');
    expect(screen.getByTestId('domain-row-2')).toHaveTextContent('Partial');
    expect(screen.getByTestId('domain-row-4')).toHaveTextContent('Minimal');
    const bare = within(screen.getByTestId('domain-row-3'));
    expect(bare.getByText('Missing')).toBeInTheDocument();
    expect(bare.getAllByText('Not configured')).toHaveLength(3);
    expect(within(screen.getByTestId('domain-row-1')).getByText('v=DMARC1; p=reject')).toBeInTheDocument();
  });

  it('cuts a long record to one line, with the whole record in its tooltip and a copy button', async () => {
    const dkim = `v=DKIM1; k=rsa; p=${'MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA'.repeat(9)}`;
    stubDashboard({ domains: [makeDomain({ id: 1, domain: 'good.example', dkimRecord: dkim })] });
    await openDashboard();
    const user = await choose('domain-health');
    const row = within(screen.getByTestId('domain-row-1'));
    const value = row.getByText(dkim);
    expect(value).toHaveClass('truncate');
    expect(value).toHaveAttribute('title', dkim);
    await user.click(row.getByRole('button', { name: 'Copy the DKIM record of good.example' }));
    // user-event's clipboard stands in for the browser's.
    expect(await navigator.clipboard.readText()).toBe(dkim);
  });
});

describe('Dashboard: inbox tests', () => {
  const tests = [
    makeTest({
      id: 9,
      subject: null,
      status: 'awaiting_email',
      totalSeeds: 0,
      inboxCount: 0,
      spamCount: 0,
      missingCount: 0,
      createdAt: hoursAgo(0.1),
    }),
    makeTest({ id: 8, subject: null, status: 'running', provider: null, createdAt: hoursAgo(2) }),
    makeTest({
      id: 7,
      subject: 'Newsletter',
      status: 'completed',
      totalSeeds: 20,
      inboxCount: 17,
      spamCount: 2,
      missingCount: 1,
      createdAt: hoursAgo(30),
    }),
    makeTest({
      id: 6,
      subject: null,
      status: 'completed',
      totalSeeds: 20,
      inboxCount: 13,
      spamCount: 5,
      missingCount: 2,
      createdAt: hoursAgo(50),
    }),
    makeTest({ id: 5, createdAt: hoursAgo(60) }),
    makeTest({ id: 4, subject: 'Too old to list', createdAt: hoursAgo(70) }),
  ];

  it('lists the 5 latest with the title rule, status, results and progress; shows the totals', async () => {
    stubDashboard({ tests });
    await openDashboard();
    await choose('inbox-tests');
    expect(screen.getByTestId('inbox-test-9')).toHaveTextContent('Awaiting Email - Test #9');
    expect(screen.getByTestId('inbox-test-9')).toHaveTextContent('Just now');
    expect(screen.getByTestId('inbox-test-8')).toHaveTextContent('Test #8');
    expect(screen.getByTestId('inbox-test-8')).toHaveTextContent('2h ago');
    expect(screen.getByTestId('inbox-test-8')).toHaveTextContent(
      'Test in progress... Expected completion in 5-10 minutes',
    );
    expect(screen.getByTestId('inbox-test-7')).toHaveTextContent('Newsletter');
    expect(screen.getByTestId('inbox-test-7')).toHaveTextContent('1d ago');
    expect(screen.getByTestId('inbox-test-7-results')).toHaveTextContent('Inbox17/20Spam2/20Missing1/20');
    expect(within(screen.getByTestId('inbox-test-7')).getByText('Completed')).toHaveAttribute('data-tone', 'good');
    expect(within(screen.getByTestId('inbox-test-8')).getByText('Running')).toHaveAttribute('data-tone', 'warn');
    expect(within(screen.getByTestId('inbox-test-9')).getByText('Awaiting Email')).toHaveAttribute('data-tone', 'none');
    expect(screen.queryByTestId('inbox-test-4')).not.toBeInTheDocument();
    // Completed tests 7, 6, 5 and 4: 17+13+8+8 inbox of 20+20+10+10 seeds.
    expect(screen.getByTestId('tests-inbox-rate')).toHaveTextContent('76.7%');
    expect(screen.getByTestId('tests-active')).toHaveTextContent('1 running · 4 complete');
    expect(screen.getByTestId('global-providers')).toHaveTextContent('45');
    expect(screen.getByTestId('overall-deliverability')).toHaveTextContent('Good');
  });

  it('colours rates by their value: 0% in the inbox is red, 0% in spam green', async () => {
    stubDashboard({
      tests: [
        makeTest({ id: 2, subject: 'All junked', totalSeeds: 10, inboxCount: 0, spamCount: 10, missingCount: 0 }),
        makeTest({ id: 1, subject: 'All delivered', totalSeeds: 10, inboxCount: 10, spamCount: 0, missingCount: 0 }),
      ],
    });
    await openDashboard();
    await choose('inbox-tests');
    const tone = (element: HTMLElement) => [element.textContent, element.getAttribute('data-tone')];
    const [junkedInbox, junkedSpam] = within(screen.getByTestId('inbox-test-2-results')).getAllByRole('definition');
    expect([tone(junkedInbox), tone(junkedSpam)]).toEqual([
      ['0/10', 'bad'],
      ['10/10', 'bad'],
    ]);
    expect(junkedInbox).toHaveClass('text-red-700');
    const [deliveredInbox, deliveredSpam] = within(screen.getByTestId('inbox-test-1-results')).getAllByRole(
      'definition',
    );
    expect([tone(deliveredInbox), tone(deliveredSpam)]).toEqual([
      ['10/10', 'good'],
      ['0/10', 'good'],
    ]);
    expect(deliveredSpam).toHaveClass('text-green-700');
    // 10 of 20 seeds: 50% inbox is poor, 50% spam is bad.
    expect(tone(within(screen.getByTestId('tests-inbox-rate')).getByText('50%'))).toEqual(['50%', 'bad']);
    expect(tone(within(screen.getByTestId('tests-spam-rate')).getByText('50%'))).toEqual(['50%', 'bad']);
    expect(tone(screen.getByTestId('average-inbox-rate'))).toEqual(['50%', 'bad']);
    expect(tone(screen.getByTestId('average-spam-rate'))).toEqual(['50%', 'bad']);
  });

  it('deletes a test: toast Test Deleted and refresh', async () => {
    let list = [makeTest({ id: 3, subject: 'Doomed' }), makeTest({ id: 2, subject: 'Kept' })];
    const fetchMock = stubDashboard({
      extra: {
        'GET /api/inbox-tests': () => jsonResponse(list),
        'DELETE /api/inbox-tests/3': () => {
          list = list.filter((t) => t.id !== 3);
          return new Response(null, { status: 204 });
        },
      },
    });
    await openDashboard();
    const user = await choose('inbox-tests');
    await user.click(screen.getByRole('button', { name: 'Delete Doomed' }));
    // Nothing is deleted before the user confirms; Cancel keeps the test.
    expect(within(await screen.findByRole('alertdialog')).getByText('Delete Inbox Test')).toBeInTheDocument();
    const deletes = () => fetchMock.mock.calls.filter(([, init]) => init?.method === 'DELETE').length;
    expect(deletes()).toBe(0);
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(deletes()).toBe(0);
    expect(screen.getByTestId('inbox-test-3')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Delete Doomed' }));
    await confirmDeletion(user, /Are you sure you want to delete test #3 \(Doomed\)\?/);
    expect(await screen.findByText('Test Deleted')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    await waitFor(() => expect(screen.queryByTestId('inbox-test-3')).not.toBeInTheDocument());
    expect(screen.getByTestId('inbox-test-2')).toBeInTheDocument();
    expect(
      fetchMock.mock.calls.some(([url, init]) => String(url) === '/api/inbox-tests/3' && init?.method === 'DELETE'),
    ).toBe(true);
  });

  it('says Authentication Required when deleting without a session', async () => {
    stubDashboard({
      tests: [makeTest({ id: 3, subject: 'Doomed' })],
      extra: { 'DELETE /api/inbox-tests/3': () => errorResponse(401, 'unauthorized', 'Please sign in to continue') },
    });
    await openDashboard();
    const user = await choose('inbox-tests');
    await user.click(screen.getByRole('button', { name: 'Delete Doomed' }));
    await confirmDeletion(user, /test #3/);
    expect(await screen.findByText('Authentication Required')).toBeInTheDocument();
    expect(screen.getByText('Please log in to delete inbox tests')).toBeInTheDocument();
  });

  it('shows the server message, or Failed to delete test, on other errors', async () => {
    stubDashboard({
      tests: [makeTest({ id: 3, subject: 'Doomed' }), makeTest({ id: 2, subject: 'Other' })],
      extra: {
        'DELETE /api/inbox-tests/3': () => errorResponse(409, 'conflict', 'A running test cannot be deleted'),
        'DELETE /api/inbox-tests/2': () => new Response('', { status: 500, statusText: 'Internal Server Error' }),
      },
    });
    await openDashboard();
    const user = await choose('inbox-tests');
    await user.click(screen.getByRole('button', { name: 'Delete Doomed' }));
    await confirmDeletion(user, /test #3/);
    expect(await screen.findByText('A running test cannot be deleted')).toBeInTheDocument();
    expect(screen.getByText('Error')).toBeInTheDocument();
    // The dialog stays open on failure, so the user can try again or cancel.
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    await user.click(screen.getByRole('button', { name: 'Delete Other' }));
    await confirmDeletion(user, /test #2/);
    expect(await screen.findByText('Failed to delete test')).toBeInTheDocument();
  });

  it('says when a running test should end from the server’s placement window', async () => {
    stubDashboard({
      tests: [
        makeTest({ id: 8, subject: null, status: 'running', placementWindowMinutes: 30, createdAt: hoursAgo(0.2) }),
      ],
    });
    await openDashboard();
    await choose('inbox-tests');
    expect(screen.getByTestId('inbox-test-8')).toHaveTextContent(
      'Test in progress... Expected completion in 15-30 minutes',
    );
  });

  it('shows No Inbox Tests Available when the last test is gone', async () => {
    let list = [makeTest({ id: 3, subject: 'Last one' })];
    stubDashboard({
      extra: {
        'GET /api/inbox-tests': () => jsonResponse(list),
        'DELETE /api/inbox-tests/3': () => {
          list = [];
          return new Response(null, { status: 204 });
        },
      },
    });
    await openDashboard();
    const user = await choose('inbox-tests');
    await user.click(screen.getByRole('button', { name: 'Delete Last one' }));
    await confirmDeletion(user, /test #3/);
    expect(await screen.findByText('No Inbox Tests Available')).toBeInTheDocument();
    expect(screen.getByTestId('dashboard-source-status')).toHaveTextContent('Inactive');
  });
});

describe('Dashboard: ESP data', () => {
  it('shows the same complaint rate on the Overview and ESP/MTA Data views (complaints per delivered message)', async () => {
    // 7 complaints over 2,800 delivered is 0.25%; over the 3,000 sent it would read 0.233%.
    const metrics = [
      makeMetric({ id: 1, provider: 'sendgrid', emailsSent: 2000, delivered: 1900, bounced: 60, complaints: 5 }),
      makeMetric({ id: 2, provider: 'mailgun', emailsSent: 1000, delivered: 900, bounced: 40, complaints: 2 }),
    ];
    stubDashboard({ overview: overviewOfMetrics(metrics), integrations: [makeSyncedIntegration()], metrics });
    const shownPercent = (element: HTMLElement) => Number(/(\d+(?:\.\d+)?)%/.exec(element.textContent ?? '')?.[1]);
    await openDashboard();
    const onOverview = shownPercent(screen.getByTestId('complaint-rate-card'));
    await choose('esp-data');
    const onEspData = shownPercent(await screen.findByTestId('esp-complaint-rate'));
    expect(onOverview).toBe(0.25);
    expect(onEspData).toBe(onOverview);
    await choose('overview');
    expect(shownPercent(await screen.findByTestId('complaint-rate-card'))).toBe(onEspData);
  });

  it('shows 30-day rates with three decimals, freshness, and the recent activity colours', async () => {
    const today = new Date().toISOString().slice(0, 10);
    stubDashboard({
      integrations: [
        makeSyncedIntegration({ id: 1, provider: 'sendgrid', lastSync: hoursAgo(0.5) }),
        makeSyncedIntegration({ id: 2, provider: 'mailgun', lastSync: hoursAgo(5) }),
        makeSyncedIntegration({ id: 3, provider: 'postfix', type: 'mta', lastSync: hoursAgo(48) }),
        makeSyncedIntegration({ id: 4, provider: 'brevo', lastSync: hoursAgo(168) }),
        makeSyncedIntegration({ id: 5, provider: 'klaviyo', status: 'error', lastSync: null }),
      ],
      metrics: [
        makeMetric({ id: 1, date: today, emailsSent: 1000, delivered: 950, bounced: 30, complaints: 1 }),
        makeMetric({
          id: 2,
          date: today,
          provider: 'mailgun',
          emailsSent: 1000,
          delivered: 949,
          bounced: 40,
          complaints: 2,
        }),
        makeMetric({
          id: 3,
          date: today,
          provider: 'postfix',
          emailsSent: 1000,
          delivered: 899,
          bounced: 90,
          complaints: 0,
        }),
        makeMetric({ id: 4, date: '2000-01-01', emailsSent: 5000, delivered: 0, bounced: 0, complaints: 0 }),
      ],
    });
    await openDashboard();
    await choose('esp-data');
    expect(await screen.findByTestId('esp-delivery-rate')).toHaveTextContent('93.267%');
    expect(screen.getByTestId('esp-bounce-rate')).toHaveTextContent('5.333%');
    // 3 complaints over 2,798 delivered (not over 3,000 sent).
    expect(screen.getByTestId('esp-complaint-rate')).toHaveTextContent('0.107%');
    expect(screen.getByTestId('esp-volume')).toHaveTextContent('3,000');
    expect(within(screen.getByTestId('integration-1')).getByTestId('sync-freshness')).toHaveTextContent('Just synced');
    expect(within(screen.getByTestId('integration-2')).getByTestId('sync-freshness')).toHaveTextContent('5h ago');
    expect(within(screen.getByTestId('integration-3')).getByTestId('sync-freshness')).toHaveTextContent('2d ago');
    expect(within(screen.getByTestId('integration-4')).getByTestId('sync-freshness')).toHaveTextContent(
      'Sync outdated',
    );
    expect(screen.getByTestId('integration-1')).toHaveTextContent('SendGrid');
    expect(screen.getByTestId('integration-3')).toHaveTextContent('MTA');
    // Inactive integrations are not listed.
    expect(screen.queryByTestId('integration-5')).not.toBeInTheDocument();
    const cells = within(screen.getByTestId('recent-email-activity')).getAllByText(/^\d+(\.\d)?%$/);
    expect(cells.map((c) => [c.textContent, c.getAttribute('data-tone')])).toEqual(
      expect.arrayContaining([
        ['95%', 'good'],
        ['94.9%', 'warn'],
        ['89.9%', 'bad'],
      ]),
    );
  });

  it('helps with a never-synced integration: Manage Integration and its setup guide', async () => {
    const open = vi.fn();
    vi.stubGlobal('open', open);
    stubDashboard({
      integrations: [
        makeSyncedIntegration({ id: 1, provider: 'smtp2go', lastSync: null }),
        makeSyncedIntegration({ id: 2, provider: 'mailgun', lastSync: null }),
      ],
    });
    await openDashboard();
    const user = await choose('esp-data');
    const smtp2go = within(await screen.findByTestId('integration-1'));
    expect(smtp2go.getByTestId('sync-freshness')).toHaveTextContent('Never synced');
    expect(smtp2go.getByRole('link', { name: /Manage Integration/ })).toHaveAttribute(
      'href',
      '/integrations?manage=smtp2go',
    );
    await user.click(smtp2go.getByRole('button', { name: 'View Setup Guide for SMTP2GO' }));
    expect(open).toHaveBeenCalledWith(
      'https://developers.smtp2go.com/docs/getting-started',
      '_blank',
      'noopener,noreferrer',
    );

    await user.click(
      within(screen.getByTestId('integration-2')).getByRole('button', { name: 'View Setup Guide for Mailgun' }),
    );
    expect(await screen.findByText(/Please check Mailgun's documentation/)).toBeInTheDocument();
    expect(open).toHaveBeenCalledTimes(1);
  });
});

describe('Dashboard: recent alerts', () => {
  it('shows the 5 latest alerts with severity and age, each with a link to its detail view', async () => {
    stubDashboard({
      alerts: [
        makeAlert({ id: 1, severity: 'critical', title: 'Listed on Spamhaus', createdAt: hoursAgo(1) }),
        makeAlert({ id: 2, severity: 'warning', title: 'Bounce rate rising', createdAt: hoursAgo(3) }),
        makeAlert({ id: 3, severity: 'info', title: 'DNS changed', createdAt: hoursAgo(26) }),
        makeAlert({ id: 4, severity: 'error', title: 'DKIM failing', createdAt: hoursAgo(40) }),
        makeAlert({ id: 5, title: 'Fifth', createdAt: hoursAgo(50) }),
        makeAlert({ id: 6, title: 'Sixth and oldest', createdAt: hoursAgo(90) }),
      ],
    });
    await openDashboard();
    const card = within(screen.getByTestId('dashboard-recent-alerts'));
    expect(card.getAllByRole('listitem')).toHaveLength(5);
    expect(card.queryByText('Sixth and oldest')).not.toBeInTheDocument();
    const first = within(screen.getByTestId('recent-alert-1'));
    expect(first.getByText('critical')).toBeInTheDocument();
    expect(first.getByText('1h ago')).toBeInTheDocument();
    // Alerts is built (content/screens.ts): View Details opens the alert's detail view.
    expect(first.getByRole('link', { name: 'View Details of Listed on Spamhaus' })).toHaveAttribute(
      'href',
      '/alerts?alertId=1',
    );
    expect(screen.getByTestId('recent-alert-1').querySelector('[data-severity-icon]')).toHaveClass('text-red-700');
    expect(screen.getByTestId('recent-alert-4').querySelector('[data-severity-icon]')).toHaveClass('text-red-700');
    expect(screen.getByTestId('recent-alert-2').querySelector('[data-severity-icon]')).toHaveClass('text-yellow-700');
  });

  it('says No recent alerts when there are none, and healthy only when every domain passes its checks', async () => {
    stubDashboard({ alerts: [], domains: [makeDomain({ id: 1 }), makeDomain({ id: 2, domain: 'second.example' })] });
    const healthy = await openDashboard();
    const card = within(screen.getByTestId('dashboard-recent-alerts'));
    expect(card.getByText('No recent alerts')).toBeInTheDocument();
    expect(card.getByText('Your email deliverability is healthy')).toBeInTheDocument();
    expect(screen.getByTestId('no-alerts')).toHaveAttribute('data-healthy', 'true');
    healthy.unmount();

    const cases: [Parameters<typeof stubDashboard>[0], string][] = [
      // The first hour: a new domain Critical at 0/100 beside no alert is not healthy.
      [
        {
          domains: [
            makeDomain({ domain: 'broken.example', status: 'error', spfStatus: 'missing', dmarcStatus: 'missing' }),
          ],
        },
        'broken.example needs attention: its DNS checks found problems.',
      ],
      [
        {
          domains: [
            makeDomain({ id: 1, status: 'warning' }),
            makeDomain({ id: 2, domain: 'b.example', status: 'error' }),
            makeDomain({ id: 3, domain: 'c.example' }),
          ],
        },
        '2 of your domains need attention: their DNS checks found problems.',
      ],
      [
        { domains: [makeDomain({ domain: 'fresh.example', status: 'pending', lastCheckedAt: null })] },
        'fresh.example has not been checked yet: run Verify DNS to check it.',
      ],
      [{ domains: [] }, 'Add a domain to monitor its authentication and deliverability.'],
      [
        { domains: [makeDomain()], overview: makeOverview({ healthScore: 45.55 }) },
        'Your email health score is 45.6/100 and needs improvement.',
      ],
    ];
    for (const [data, text] of cases) {
      stubDashboard({ alerts: [], ...data });
      const next = await openDashboard();
      const quiet = within(screen.getByTestId('dashboard-recent-alerts'));
      expect(quiet.getByText('No recent alerts')).toBeInTheDocument();
      expect(quiet.getByText(text)).toBeInTheDocument();
      expect(quiet.queryByText('Your email deliverability is healthy')).not.toBeInTheDocument();
      expect(screen.getByTestId('no-alerts')).toHaveAttribute('data-healthy', 'false');
      next.unmount();
    }
  });

  it('wraps a long alert instead of widening the page', async () => {
    const key = 'MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA'.repeat(9);
    stubDashboard({
      alerts: [
        makeAlert({
          id: 1,
          title: 'DKIM record changed for example.com',
          message: `DKIM record changed from "v=DKIM1; p=${key}" to "none".`,
        }),
      ],
    });
    await openDashboard();
    const alert = within(screen.getByTestId('recent-alert-1'));
    expect(alert.getByText(/DKIM record changed from/)).toHaveClass('wrap-anywhere');
    expect(alert.getByText('DKIM record changed for example.com')).toHaveClass('wrap-anywhere');
  });

  it('deletes an alert: refresh and toast Alert deleted', async () => {
    let alerts = [makeAlert({ id: 1, title: 'DMARC failing' })];
    const fetchMock = stubDashboard({
      domains: [makeDomain()],
      alerts: () => alerts,
      extra: {
        'DELETE /api/alerts/1': () => {
          alerts = [];
          return new Response(null, { status: 204 });
        },
      },
    });
    await openDashboard();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Delete alert DMARC failing' }));
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'DELETE')).toBe(false);
    await confirmDeletion(user, /Are you sure you want to delete the alert "DMARC failing"\?/);
    expect(await screen.findByText('Alert deleted')).toBeInTheDocument();
    expect(await screen.findByText('No recent alerts')).toBeInTheDocument();
    expect(screen.getByText('Your email deliverability is healthy')).toBeInTheDocument();
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
  });

  it('toasts Error / Failed to delete alert. Please try again. on failure', async () => {
    stubDashboard({
      alerts: [makeAlert({ id: 1, title: 'DMARC failing' })],
      extra: { 'DELETE /api/alerts/1': () => errorResponse(500, 'internal', 'Something went wrong') },
    });
    await openDashboard();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Delete alert DMARC failing' }));
    await confirmDeletion(user, /DMARC failing/);
    expect(await screen.findByText('Failed to delete alert. Please try again.')).toBeInTheDocument();
    expect(screen.getByText('Error')).toBeInTheDocument();
    expect(screen.getByTestId('recent-alert-1')).toBeInTheDocument();
  });
});

describe('Dashboard: partial failures', () => {
  it('says which lists could not be loaded', async () => {
    stubFetch({
      'GET /api/user': () => jsonResponse(makeUser()),
      'GET /api/dashboard/overview': () => jsonResponse(makeOverview()),
      'GET /api/domains': () => errorResponse(500, 'internal', 'Something went wrong'),
      'GET /api/inbox-tests': () => jsonResponse([]),
      'GET /api/integrations': () => jsonResponse([]),
      'GET /api/alerts': () => jsonResponse([]),
    });
    await openDashboard();
    expect(screen.getByRole('alert')).toHaveTextContent('Some dashboard data could not be loaded: domains.');
  });
});
