import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { ErrorCode } from '@contracts/errors';
import type { InboxTest } from '@contracts/inbox-tests';
import {
  bodyOf,
  errorResponse,
  jsonResponse,
  makeDomain,
  preloadSignedInFrame,
  renderApp,
  signedOut,
  stubFetch,
} from '../../test/test-utils';
import {
  makeAnalyserRow,
  makeInboxTest,
  makeReport,
  makeRow,
  makeSeedStatus,
  stubInboxPlacement,
} from './test/fixtures';

// Load the lazy chunks once up front, so the first test does not spend its wait on module loading.
beforeAll(async () => {
  await Promise.all([
    import('./inbox-placement-page'),
    import('./components/test-results-panel'),
    import('./components/message-analysis'),
    preloadSignedInFrame(),
  ]);
});

async function openPage() {
  const view = renderApp('/inbox-placement');
  await screen.findByTestId('inbox-placement-page');
  return view;
}

async function card(id: number) {
  return within(await screen.findByTestId(`inbox-test-${id}`));
}

describe('Inbox placement: Create Test', () => {
  it('is disabled with the hint when the user has no healthy domain', async () => {
    stubInboxPlacement({
      domains: [
        makeDomain({ status: 'pending', isVerified: false }),
        makeDomain({ id: 2, domain: 'b.example.com', status: 'warning' }),
      ],
    });
    await openPage();
    expect(await screen.findByText('Add and verify at least one domain to start testing')).toBeInTheDocument();
    expect(screen.getByTestId('create-test')).toBeDisabled();
  });

  it('is enabled without the hint when a domain is healthy', async () => {
    stubInboxPlacement();
    await openPage();
    await waitFor(() => expect(screen.getByTestId('create-test')).toBeEnabled());
    expect(screen.queryByText('Add and verify at least one domain to start testing')).not.toBeInTheDocument();
    expect(await screen.findByText('No inbox tests yet')).toBeInTheDocument();
  });

  it('creates an automatic test, toasts "Test Created" and shows it with its address, subject prefix and copy buttons', async () => {
    const created = makeInboxTest({ id: 12, seedAddresses: ['seed-a@gmail.test', 'seed-b@outlook.test'] });
    let tests: InboxTest[] = [];
    const fetchMock = stubInboxPlacement({
      tests: () => tests,
      extra: {
        'POST /api/inbox-tests': () => {
          tests = [created];
          return jsonResponse(created, 201);
        },
      },
    });
    await openPage();
    const user = userEvent.setup();
    const button = screen.getByTestId('create-test');
    await waitFor(() => expect(button).toBeEnabled());
    await user.click(button);

    expect(await screen.findByText('Test Created')).toBeInTheDocument();
    expect(bodyOf(fetchMock, 'POST /api/inbox-tests')).toEqual({
      testType: 'automatic',
      oneClickUnsubscribeTest: true,
    });
    const element = await card(12);
    expect(element.getByRole('heading', { name: 'Inbox Test 12' })).toBeInTheDocument();
    expect(element.getByTestId('inbox-test-status-12')).toHaveTextContent('Awaiting email');
    expect(element.getByText('test-12@in.inboxpulse.test')).toBeInTheDocument();
    expect(element.getByText('[TEST-12]')).toBeInTheDocument();
    expect(element.getByText(/Put the test id in the subject as "\[TEST-12\] Your Subject"/)).toBeInTheDocument();
    expect(
      element.getByText(/Until your email arrives, the test is listed under its default subject, "Inbox Test 12"\./),
    ).toBeInTheDocument();
    // Results exist only for completed tests.
    expect(element.queryByTestId('view-results-12')).not.toBeInTheDocument();

    await user.click(element.getByRole('button', { name: 'Copy subject prefix' }));
    expect(await navigator.clipboard.readText()).toBe('[TEST-12]');
    expect(element.getAllByText('Copied').length).toBeGreaterThan(0);
    await user.click(element.getByRole('button', { name: 'Copy test address' }));
    expect(await navigator.clipboard.readText()).toBe('test-12@in.inboxpulse.test');
    await user.click(element.getByRole('button', { name: 'Copy seed address seed-b@outlook.test' }));
    expect(await navigator.clipboard.readText()).toBe('seed-b@outlook.test');
    await user.click(element.getByRole('button', { name: 'Copy all seed addresses' }));
    expect(await navigator.clipboard.readText()).toBe('seed-a@gmail.test, seed-b@outlook.test');
  });

  it('is disabled while a creation is pending', async () => {
    let answer: (response: Response) => void = () => {};
    stubInboxPlacement({
      extra: { 'POST /api/inbox-tests': () => new Promise<Response>((resolve) => (answer = resolve)) },
    });
    await openPage();
    const user = userEvent.setup();
    const button = screen.getByTestId('create-test');
    await waitFor(() => expect(button).toBeEnabled());
    await user.click(button);
    await waitFor(() => expect(button).toBeDisabled());
    expect(button).toHaveTextContent('Creating...');
    answer(jsonResponse(makeInboxTest({ id: 8 }), 201));
    expect(await screen.findByText('Test Created')).toBeInTheDocument();
    await waitFor(() => expect(button).toBeEnabled());
  });

  it.each<[number, ErrorCode, string, string]>([
    [401, 'unauthorized', 'Please sign in to continue', 'Please log in to create inbox tests'],
    [409, 'conflict', 'Verify a domain before you create a test', 'Verify a domain before you create a test'],
  ])('on a %i (%s) shows the right message', async (status, code, serverMessage, shown) => {
    stubInboxPlacement({ extra: { 'POST /api/inbox-tests': () => errorResponse(status, code, serverMessage) } });
    await openPage();
    const user = userEvent.setup();
    await waitFor(() => expect(screen.getByTestId('create-test')).toBeEnabled());
    await user.click(screen.getByTestId('create-test'));
    expect(await screen.findByText(shown)).toBeInTheDocument();
  });

  it('falls back to "Failed to create test" when the server gives no message', async () => {
    stubInboxPlacement({ extra: { 'POST /api/inbox-tests': () => new Response('', { status: 500 }) } });
    await openPage();
    const user = userEvent.setup();
    await waitFor(() => expect(screen.getByTestId('create-test')).toBeEnabled());
    await user.click(screen.getByTestId('create-test'));
    expect(await screen.findByText('Failed to create test')).toBeInTheDocument();
  });
});

describe('Inbox placement: the list', () => {
  it('shows each status, the creation date and the failure reason of failed tests', async () => {
    stubInboxPlacement({
      tests: [
        makeInboxTest({ id: 4, status: 'failed', failureReason: 'No email arrived within 24 hours.' }),
        makeInboxTest({
          id: 3,
          status: 'completed',
          subject: '[TEST-3] Spring sale',
          completedAt: '2025-03-01T10:09:00.000Z',
        }),
        makeInboxTest({ id: 2, status: 'running', subject: '[TEST-2] Weekly news' }),
      ],
      extra: { 'GET /api/inbox-tests/2/report': () => errorResponse(404, 'not_found', 'No report yet') },
    });
    await openPage();
    expect((await card(4)).getByTestId('inbox-test-status-4')).toHaveTextContent('Failed');
    expect((await card(4)).getByText('No email arrived within 24 hours.')).toBeInTheDocument();
    expect((await card(3)).getByTestId('inbox-test-status-3')).toHaveTextContent('Completed');
    expect((await card(3)).getByRole('heading', { name: '[TEST-3] Spring sale' })).toBeInTheDocument();
    expect((await card(3)).getByText(/Created Mar 1, 2025/)).toBeInTheDocument();
    expect((await card(2)).getByTestId('inbox-test-status-2')).toHaveTextContent('Running');
    expect((await card(2)).getByText('Test in progress... Expected completion in 5-10 minutes')).toBeInTheDocument();
    expect((await card(2)).queryByTestId('view-results-2')).not.toBeInTheDocument();
    expect((await card(4)).queryByTestId('view-results-4')).not.toBeInTheDocument();
    expect((await card(3)).getByTestId('view-results-3')).toHaveTextContent('View Results');
  });

  it('says when a running test should end from the server’s placement window, in the spec’s words for the default 10 minutes', async () => {
    stubInboxPlacement({
      tests: [
        makeInboxTest({ id: 7, status: 'running', placementWindowMinutes: 10 }),
        makeInboxTest({ id: 8, status: 'running', placementWindowMinutes: 30 }),
        makeInboxTest({ id: 9, status: 'running', placementWindowMinutes: 1 }),
      ],
    });
    await openPage();
    expect((await card(7)).getByText('Test in progress... Expected completion in 5-10 minutes')).toBeInTheDocument();
    expect((await card(8)).getByText('Test in progress... Expected completion in 15-30 minutes')).toBeInTheDocument();
    expect((await card(9)).getByText('Test in progress... Expected completion in 1 minute')).toBeInTheDocument();
  });

  it('asks for the list again every 5 s while a test waits, so the status changes on screen', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let status: InboxTest['status'] = 'awaiting_email';
    stubInboxPlacement({
      tests: () => [makeInboxTest({ id: 5, status })],
      extra: { 'GET /api/inbox-tests/5/report': () => jsonResponse(makeReport()) },
    });
    await openPage();
    expect((await card(5)).getByTestId('inbox-test-status-5')).toHaveTextContent('Awaiting email');
    status = 'completed';
    await vi.advanceTimersByTimeAsync(5_100);
    await waitFor(() => expect(screen.getByTestId('inbox-test-status-5')).toHaveTextContent('Completed'));
  });

  it("offers a signed-out screen with the spec text and a way to log in (the route's signedOut handle)", async () => {
    stubFetch(signedOut);
    renderApp('/inbox-placement');
    const notice = within(await screen.findByTestId('inbox-placement-signed-out'));
    expect(notice.getByText('Please log in to access inbox placement testing')).toBeInTheDocument();
    expect(notice.getByRole('link', { name: 'Log In' })).toHaveAttribute('href', '/login');
  });

  it('shows "Please log in to access inbox placement testing" when the session is gone', async () => {
    stubInboxPlacement({
      extra: { 'GET /api/inbox-tests': () => errorResponse(401, 'unauthorized', 'Please sign in to continue') },
    });
    await openPage();
    expect(await screen.findByText('Please log in to access inbox placement testing')).toBeInTheDocument();
  });
});

describe('Inbox placement: delete', () => {
  it('asks for confirmation, deletes, toasts "Test Deleted" and removes the card', async () => {
    let tests = [makeInboxTest({ id: 1 }), makeInboxTest({ id: 2 })];
    const fetchMock = stubInboxPlacement({
      tests: () => tests,
      extra: {
        'DELETE /api/inbox-tests/1': () => {
          tests = tests.filter((test) => test.id !== 1);
          return new Response(null, { status: 204 });
        },
      },
    });
    await openPage();
    const user = userEvent.setup();
    await user.click((await card(1)).getByRole('button', { name: 'Delete test 1' }));
    const dialog = within(await screen.findByRole('alertdialog'));
    expect(dialog.getByText(/Are you sure you want to delete test #1/)).toBeInTheDocument();
    await user.click(dialog.getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Test Deleted')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByTestId('inbox-test-1')).not.toBeInTheDocument());
    expect(screen.getByTestId('inbox-test-2')).toBeInTheDocument();
    expect(fetchMock.mock.calls.filter(([, init]) => init?.method === 'DELETE')).toHaveLength(1);
  });

  it('cancelling deletes nothing', async () => {
    const fetchMock = stubInboxPlacement({ tests: [makeInboxTest({ id: 1 })] });
    await openPage();
    const user = userEvent.setup();
    await user.click((await card(1)).getByRole('button', { name: 'Delete test 1' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'DELETE')).toBe(false);
    expect(screen.getByTestId('inbox-test-1')).toBeInTheDocument();
  });

  it.each([
    [401, 'Please log in to delete inbox tests'],
    [500, 'Failed to delete test'],
  ])('on a %i shows "%s"', async (status, shown) => {
    stubInboxPlacement({
      tests: [makeInboxTest({ id: 1 })],
      extra: {
        'DELETE /api/inbox-tests/1': () =>
          status === 401 ? errorResponse(401, 'unauthorized', 'Please sign in') : new Response('', { status }),
      },
    });
    await openPage();
    const user = userEvent.setup();
    await user.click((await card(1)).getByRole('button', { name: 'Delete test 1' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText(shown)).toBeInTheDocument();
    expect(screen.getByTestId('inbox-test-1')).toBeInTheDocument();
  });
});

describe('Inbox placement: results and analysis', () => {
  const completed = makeInboxTest({
    id: 3,
    status: 'completed',
    subject: '[TEST-3] Spring sale',
    totalSeeds: 3,
    inboxCount: 2,
    spamCount: 1,
    score: 7.5,
  });

  it('computes rates and breakdowns from the rows: 2 providers in 2 regions', async () => {
    stubInboxPlacement({
      tests: [completed],
      extra: {
        'GET /api/inbox-tests/3/results': () =>
          jsonResponse([
            makeRow({
              provider: 'Gmail',
              region: 'North America',
              country: 'United States',
              mailboxSystem: 'Gmail',
              seedsUsed: 2,
              inboxCount: 2,
              notes: ['Promotions tab'],
            }),
            makeRow({
              provider: 'GMX',
              region: 'Europe',
              country: 'Germany',
              mailboxSystem: 'United Internet',
              seedsUsed: 1,
              inboxCount: 0,
              spamCount: 1,
              notes: ['Spam'],
            }),
          ]),
        'GET /api/inbox-tests/3/report': () => jsonResponse(makeReport()),
      },
    });
    await openPage();
    const user = userEvent.setup();
    await user.click((await card(3)).getByTestId('view-results-3'));
    const panel = within(await screen.findByTestId('inbox-test-results-3'));
    expect(await panel.findByTestId('rate-inbox')).toHaveTextContent('67%');
    expect(panel.getByTestId('rate-spam')).toHaveTextContent('33%');
    expect(panel.getByTestId('rate-missing')).toHaveTextContent('0%');
    expect(panel.getByTestId('total-tests')).toHaveTextContent('3');

    const regions = within(panel.getByTestId('breakdown-region')).getAllByTestId('breakdown-row');
    expect(regions.map((row) => [...row.querySelectorAll('td')].map((cell) => cell.textContent))).toEqual([
      ['North America', '100%', '0%', '0%', '1', '2'],
      ['Europe', '0%', '100%', '0%', '1', '1'],
    ]);
    // Coloured by value: 0% inbox and 100% spam are bad, 100% inbox and 0% spam good.
    expect(regions.map((row) => [...row.querySelectorAll('td')].slice(1, 3).map((cell) => cell.dataset.tone))).toEqual([
      ['good', 'good'],
      ['bad', 'bad'],
    ]);
    const countries = within(panel.getByTestId('breakdown-country')).getAllByTestId('breakdown-row');
    expect(countries.map((row) => row.querySelector('td')?.textContent)).toEqual(['United States', 'Germany']);
    const systems = within(panel.getByTestId('breakdown-mailbox-system')).getAllByTestId('breakdown-row');
    expect(systems.map((row) => row.querySelector('td')?.textContent)).toEqual(['Gmail', 'United Internet']);

    const providers = within(panel.getByTestId('provider-results')).getAllByTestId('provider-row');
    expect(within(providers[0]).getByText('Inbox')).toBeInTheDocument();
    expect(within(providers[0]).getByText('Promotions tab')).toBeInTheDocument();
    expect(within(providers[1]).getByText('Spam', { selector: '[data-tone]' })).toBeInTheDocument();

    await user.click(screen.getByTestId('view-results-3'));
    expect(screen.queryByTestId('inbox-test-results-3')).not.toBeInTheDocument();
    expect(screen.getByTestId('view-results-3')).toHaveTextContent('View Results');
  });

  it('shows the score, every deduction with its fix, findings by category and the technical details', async () => {
    stubInboxPlacement({
      tests: [completed],
      extra: {
        'GET /api/inbox-tests/3/results': () => jsonResponse([makeRow()]),
        'GET /api/inbox-tests/3/report': () => jsonResponse(makeReport()),
      },
    });
    await openPage();
    const user = userEvent.setup();
    await user.click((await card(3)).getByTestId('view-results-3'));
    const score = await screen.findByTestId('inbox-test-score-3');
    expect(score).toHaveTextContent(/^7\.5$/);
    expect(score.parentElement).toHaveTextContent('Score 7.5/10');
    const analysis = within(screen.getByTestId('inbox-test-analysis-3'));
    expect(analysis.getByText('Good')).toBeInTheDocument();
    expect(analysis.getByTestId('analysis-engines')).toHaveTextContent('Scored by InboxPulse checks and SpamAssassin.');
    const deductions = analysis.getAllByTestId('analysis-deduction');
    expect(deductions).toHaveLength(2);
    expect(deductions[0]).toHaveTextContent('DMARC policy is p=none');
    expect(deductions[0]).toHaveTextContent('-1.5');
    expect(deductions[0]).toHaveTextContent('Fix: Move the DMARC policy to p=quarantine once reports look clean.');
    expect(deductions[1]).toHaveTextContent('Fix: Add List-Unsubscribe and List-Unsubscribe-Post headers.');

    expect(within(analysis.getByTestId('findings-authentication')).getByText('SPF passed')).toBeInTheDocument();
    expect(within(analysis.getByTestId('findings-reputation')).getByText('Reverse DNS confirmed')).toBeInTheDocument();
    expect(
      within(analysis.getByTestId('findings-content')).getByText('No List-Unsubscribe header'),
    ).toBeInTheDocument();
    expect(analysis.queryByTestId('findings-spamassassin')).not.toBeInTheDocument();

    const auth = within(analysis.getByTestId('analysis-authentication'));
    expect(auth.getByText(/spf=pass smtp.mailfrom=example.com/)).toBeInTheDocument();
    expect(auth.getByText(/d=example.com s=s1/)).toBeInTheDocument();
    const ip = within(analysis.getByTestId('analysis-connecting-ip'));
    expect(ip.getByText('192.0.2.10')).toBeInTheDocument();
    expect(ip.getByText('Barracuda').closest('li')).toHaveTextContent('Listed');
    expect(ip.getByRole('link', { name: 'Look up 192.0.2.10 on Spamhaus ZEN' })).toHaveAttribute(
      'href',
      'https://check.spamhaus.org/',
    );
    expect(within(analysis.getByTestId('analysis-content')).getByText('4.0 KB')).toBeInTheDocument();
    expect(within(analysis.getByTestId('analysis-spamassassin')).getByText('HTML_MESSAGE')).toBeInTheDocument();
  });

  it("shows the one-click unsubscribe test's verdict, time and RFC reason with the message analysis", async () => {
    const oneClickUnsubscribe = {
      outcome: 'requires_get' as const,
      summary: 'Required a GET: the link answered 405 (method not allowed) to the POST.',
      rfcReason: 'RFC 8058 3.2: mailbox providers unsubscribe with a POST, never a GET.',
      url: 'https://unsubscribe.example.com/u?…',
      status: 405,
      durationMs: 87,
      redirects: [],
      hasListUnsubscribe: true,
      testedAt: '2026-11-29T10:00:00.000Z',
    };
    stubInboxPlacement({
      tests: [completed],
      extra: {
        'GET /api/inbox-tests/3/results': () => jsonResponse([makeRow()]),
        'GET /api/inbox-tests/3/report': () => jsonResponse(makeReport({ oneClickUnsubscribe })),
      },
    });
    await openPage();
    const user = userEvent.setup();
    await user.click((await card(3)).getByTestId('view-results-3'));
    const section = within(await screen.findByTestId('analysis-one-click-unsubscribe'));
    expect(section.getByText('Required a GET')).toBeInTheDocument();
    expect(section.getByText(oneClickUnsubscribe.summary)).toBeInTheDocument();
    expect(section.getByText('87 ms')).toBeInTheDocument();
    expect(section.getByText(oneClickUnsubscribe.rfcReason)).toBeInTheDocument();
  });

  it('says which engines scored the message, so a score without SpamAssassin is not taken for one with it', async () => {
    const withoutSpamd = makeReport({
      spamAssassin: null,
      engines: [
        { id: 'inboxpulse', name: 'InboxPulse checks', status: 'ran' },
        { id: 'spamassassin', name: 'SpamAssassin', status: 'not-configured' },
      ],
    });
    stubInboxPlacement({
      tests: [completed],
      extra: {
        'GET /api/inbox-tests/3/results': () => jsonResponse([makeRow()]),
        'GET /api/inbox-tests/3/report': () => jsonResponse(withoutSpamd),
      },
    });
    await openPage();
    await userEvent.setup().click((await card(3)).getByTestId('view-results-3'));
    expect(await screen.findByTestId('analysis-engines')).toHaveTextContent(
      'Scored by InboxPulse checks only: SpamAssassin is not configured on this server.',
    );
    expect(screen.queryByTestId('analysis-spamassassin')).not.toBeInTheDocument();
  });

  it('shows the analysis of a running test as soon as the report exists', async () => {
    let report: ReturnType<typeof makeReport> | null = null;
    vi.useFakeTimers({ shouldAdvanceTime: true });
    stubInboxPlacement({
      tests: [makeInboxTest({ id: 2, status: 'running' })],
      extra: {
        'GET /api/inbox-tests/2/report': () =>
          report ? jsonResponse(report) : errorResponse(404, 'not_found', 'No report yet'),
      },
    });
    await openPage();
    expect(
      await screen.findByText('The message analysis appears here once your email has arrived.'),
    ).toBeInTheDocument();
    report = makeReport({ score: 9, verdict: 'Excellent', deductions: [] });
    await vi.advanceTimersByTimeAsync(5_100);
    expect(await screen.findByTestId('inbox-test-score-2')).toHaveTextContent(/^9$/);
    expect(screen.getByText('Excellent')).toBeInTheDocument();
  });

  it('opens the results of a test it saw running with the report, not the "not arrived" note it had then', async () => {
    let status: 'running' | 'completed' = 'running';
    let report: ReturnType<typeof makeReport> | null = null;
    vi.useFakeTimers({ shouldAdvanceTime: true });
    stubInboxPlacement({
      tests: () => [makeInboxTest({ id: 2, status })],
      extra: {
        'GET /api/inbox-tests/2/report': () =>
          report ? jsonResponse(report) : errorResponse(404, 'not_found', 'No report yet'),
        'GET /api/inbox-tests/2/results': () => jsonResponse([makeRow()]),
      },
    });
    await openPage();
    expect(
      await screen.findByText('The message analysis appears here once your email has arrived.'),
    ).toBeInTheDocument();
    // The report and the completion land together, between two polls of the list.
    report = makeReport({ score: 8.5, verdict: 'Good' });
    status = 'completed';
    await vi.advanceTimersByTimeAsync(5_100);
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    await user.click(await screen.findByTestId('view-results-2'));
    expect(await screen.findByTestId('inbox-test-score-2')).toHaveTextContent(/^8\.5$/);
  });

  it('without a seed network shows the analyser row as the server labels it, and no regions of its own', async () => {
    stubInboxPlacement({
      tests: [completed],
      seedStatus: () =>
        jsonResponse(makeSeedStatus({ configured: false, totalProviders: 0, totalAddresses: 0, byRegion: {} })),
      extra: {
        'GET /api/inbox-tests/3/results': () =>
          jsonResponse([makeAnalyserRow({ notes: ['Classed by the message analysis: 7.5/10 (Good)'] })]),
        'GET /api/inbox-tests/3/report': () => jsonResponse(makeReport()),
      },
    });
    await openPage();
    const user = userEvent.setup();
    await user.click((await card(3)).getByTestId('view-results-3'));
    const panel = within(await screen.findByTestId('inbox-test-results-3'));
    expect(await panel.findByTestId('analyser-only-note')).toHaveTextContent("InboxPulse's own inbound analyser");
    expect(panel.getByTestId('rate-inbox')).toHaveTextContent('100%');
    expect(panel.queryByTestId('breakdown-region')).not.toBeInTheDocument();
    const row = within(panel.getByTestId('provider-row'));
    expect(row.getByText('InboxPulse analyser (no seed network)')).toBeInTheDocument();
    expect(row.getByText('Inbox')).toBeInTheDocument();
    expect(row.getByText('Classed by the message analysis: 7.5/10 (Good)')).toBeInTheDocument();
  });
});

describe('Inbox placement: seed network status', () => {
  it('shows the real figures and region tiles when the status call answers', async () => {
    stubInboxPlacement({
      seedStatus: () =>
        jsonResponse(
          makeSeedStatus({ totalProviders: 4, totalAddresses: 6, byRegion: { Europe: 1, 'North America': 3 } }),
        ),
    });
    await openPage();
    const banner = await screen.findByTestId('seed-network-banner');
    await waitFor(() => expect(banner).toHaveAttribute('data-state', 'live'));
    expect(banner).toHaveTextContent('Seed network active: 4 providers, 6 seed addresses');
    const tiles = screen.getAllByTestId('region-tile').map((tile) => tile.textContent);
    expect(tiles).toEqual(['North America3providers', 'Europe1provider']);
    expect(screen.queryByText(/31 providers/)).not.toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'How it works' })).toBeInTheDocument();
  });

  it('falls back to the spec defaults only when the call fails', async () => {
    stubInboxPlacement({ seedStatus: () => errorResponse(500, 'internal', 'Something went wrong') });
    await openPage();
    const banner = await screen.findByTestId('seed-network-banner');
    await waitFor(() => expect(banner).toHaveAttribute('data-state', 'fallback'));
    expect(banner).toHaveTextContent('31 providers, 42 seed addresses');
    expect(banner).toHaveTextContent(
      'North America 8 · Europe 7 · Asia Pacific 6 · Latin America 5 · Middle East & Africa 5',
    );
    expect(screen.getAllByTestId('region-tile').map((tile) => tile.textContent)).toEqual([
      'North America15providers',
      'Europe12providers',
      'Asia Pacific10providers',
      'Latin America5providers',
      'Africa & Middle East3providers',
    ]);
  });

  it('says honestly that no seed network is configured, with no per-provider numbers', async () => {
    stubInboxPlacement({
      seedStatus: () =>
        jsonResponse(makeSeedStatus({ configured: false, totalProviders: 0, totalAddresses: 0, byRegion: {} })),
    });
    await openPage();
    const banner = await screen.findByTestId('seed-network-banner');
    await waitFor(() => expect(banner).toHaveAttribute('data-state', 'not-configured'));
    expect(banner).toHaveTextContent('No seed network is configured.');
    expect(banner).toHaveTextContent("Tests are analysed by InboxPulse's own inbound analyser");
    expect(screen.queryByTestId('region-tile')).not.toBeInTheDocument();
    expect(screen.queryByText(/31 providers|42 seed/)).not.toBeInTheDocument();
  });
});
