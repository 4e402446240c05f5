import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import type { IpAddress } from '@contracts/reputation';
import { bodyOf, errorResponse, jsonResponse, renderApp } from '../../test/test-utils';
import { makeAnswer, makeDomainReputation, makeIp, makeStatus, stubBlacklist } from './test/fixtures';

beforeAll(async () => {
  await Promise.all([
    import('./blacklist-monitoring-page'),
    import('../../app/shell/app-shell'),
    import('../../components/ui/toaster'),
  ]);
});

async function openPage() {
  const app = renderApp('/blacklist-monitoring');
  await screen.findByTestId('blacklist-monitoring-page');
  return app;
}

async function card(ip: string) {
  const cards = await screen.findAllByTestId('blacklist-ip-card');
  const match = cards.find((element) => element.getAttribute('data-ip') === ip);
  if (!match) throw new Error(`No card for ${ip}`);
  return match;
}

const shownIps = () => screen.queryAllByTestId('blacklist-ip-card').map((element) => element.getAttribute('data-ip'));

const LISTED = makeAnswer({
  listId: 'spamcop',
  provider: 'SpamCop',
  zone: 'bl.spamcop.net',
  tier: 2,
  status: 'listed',
  listed: true,
  answers: ['127.0.0.2'],
  reason: 'Listed: reported as a spam source',
  txt: 'Blocked - see https://www.spamcop.net/bl.shtml?203.0.113.25',
  removalUrl: 'https://www.spamcop.net/bl.shtml',
});
const UNKNOWN = makeAnswer({
  listId: 'psbl',
  provider: 'PSBL',
  zone: 'psbl.surriel.com',
  tier: 3,
  status: 'unknown',
  reason: 'No answer within 3 s',
});

describe('Blacklist Monitoring: states and overview', () => {
  it('with no IPs shows "No IP Addresses Monitored" and a way to /reputation', async () => {
    stubBlacklist([]);
    await openPage();
    expect(await screen.findByText('No IP Addresses Monitored')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Add IP Addresses' })).toHaveAttribute('href', '/reputation');
    expect(screen.getByRole('button', { name: 'Refresh Monitoring' })).toBeDisabled();
  });

  it('shows the overview: IPs monitored, clean, listed, lists checked, 2h, last and next run', async () => {
    stubBlacklist(
      [
        makeIp(),
        makeIp({ id: 2, ipAddress: '203.0.113.26', blacklistCount: 1 }),
        makeIp({ id: 3, ipAddress: '203.0.113.27', lastChecked: null, status: 'pending' }),
      ],
      {
        'GET /api/ip-monitoring/status': () =>
          jsonResponse(makeStatus({ totalProviders: 41, ipv4Providers: 40, ipv6Providers: 3 })),
      },
    );
    await openPage();
    const overview = within(await screen.findByTestId('blacklist-overview'));
    expect(overview.getByTestId('overview-monitored')).toHaveTextContent('3');
    expect(overview.getByTestId('overview-clean')).toHaveTextContent('1');
    expect(overview.getByTestId('overview-listed')).toHaveTextContent('1');
    expect(await overview.findByText('41')).toBeInTheDocument();
    expect(overview.getByTestId('overview-lists-note')).toHaveTextContent(
      'An IPv4 address is asked 40 of the 41 IP lists, an IPv6 address the 3 that answer for IPv6; domains are asked the 9 domain lists.',
    );
    expect(overview.getByText('2h')).toBeInTheDocument();
    expect(overview.getByTestId('overview-last-run')).not.toHaveTextContent('Never');
    expect(overview.getByTestId('overview-next-run')).not.toHaveTextContent('Not scheduled');
  });

  it.each([
    [0, 'Clean', 'good'],
    [1, 'Warning', 'warn'],
    [2, 'Warning', 'warn'],
    [3, 'Critical', 'bad'],
    [7, 'Critical', 'bad'],
  ] as const)('labels an IP listed on %i lists "%s"', async (blacklistCount, label, tone) => {
    // The badge follows the count on this page, whatever the IP's own status says.
    stubBlacklist([makeIp({ blacklistCount, status: 'caution', totalProviders: 40 })]);
    await openPage();
    const element = within(await card('203.0.113.25'));
    expect(element.getByTestId('blacklist-badge')).toHaveTextContent(label);
    expect(element.getByTestId('blacklist-badge')).toHaveAttribute('data-tone', tone);
    expect(element.getByTestId('listed-count')).toHaveTextContent(
      `Listed on ${blacklistCount} of 40 IP lists asked for this address`,
    );
  });

  it('counts only the lists that answered, and says how many refused or did not answer', async () => {
    const refused = makeAnswer({
      listId: 'spamhaus-zen',
      status: 'unknown',
      answers: ['127.255.255.254'],
      reason: 'The list refused the query',
    });
    const alsoRefused = makeAnswer({
      listId: 'spamcop',
      provider: 'SpamCop',
      status: 'unknown',
      answers: ['127.255.255.255'],
      reason: 'Refused',
    });
    const silent = makeAnswer({
      listId: 'psbl',
      provider: 'PSBL',
      status: 'unknown',
      answers: [],
      reason: 'The list did not answer within 2 s.',
    });
    stubBlacklist([
      makeIp({ totalProviders: 37, reputationDetails: [refused, alsoRefused, makeAnswer({ listId: 'barracuda' })] }),
      makeIp({ id: 2, ipAddress: '203.0.113.26', totalProviders: 37, reputationDetails: [refused, silent] }),
    ]);
    await openPage();
    expect(within(await card('203.0.113.25')).getByTestId('listed-count')).toHaveTextContent(
      'Listed on 0 of 35 answered (2 refused)',
    );
    expect(within(await card('203.0.113.26')).getByTestId('listed-count')).toHaveTextContent(
      'Listed on 0 of 35 answered (1 refused, 1 did not answer)',
    );
  });

  it('an IP never checked reads "Checking", not Clean', async () => {
    stubBlacklist([makeIp({ lastChecked: null, status: 'pending', reputationDetails: [] })]);
    await openPage();
    const element = within(await card('203.0.113.25'));
    expect(element.getByTestId('blacklist-badge')).toHaveTextContent('Checking');
    expect(element.getByTestId('listed-count')).toHaveTextContent('Not checked yet');
  });
});

describe('Blacklist Monitoring: search, filter and details', () => {
  const ips = [
    makeIp({ id: 1, ipAddress: '203.0.113.25', label: 'Transactional' }),
    makeIp({ id: 2, ipAddress: '198.51.100.9', label: 'Newsletter pool', blacklistCount: 2 }),
    makeIp({ id: 3, ipAddress: '192.0.2.1', label: 'Marketing', blacklistCount: 4 }),
  ];

  it('searches by IP or label and filters All Status / Clean / Listed, with "No Results Found"', async () => {
    stubBlacklist(ips);
    await openPage();
    await card('203.0.113.25');
    const user = userEvent.setup();
    const filter = screen.getByRole('combobox', { name: 'Filter by status' });
    expect([...filter.querySelectorAll('option')].map((option) => option.textContent)).toEqual([
      'All Status',
      'Clean',
      'Listed',
    ]);
    await user.selectOptions(filter, 'Listed');
    expect(shownIps()).toEqual(['198.51.100.9', '192.0.2.1']);
    await user.selectOptions(filter, 'Clean');
    expect(shownIps()).toEqual(['203.0.113.25']);
    await user.selectOptions(filter, 'All Status');
    const search = screen.getByRole('searchbox', { name: 'Search by IP or label' });
    await user.type(search, 'newsLETTER');
    expect(shownIps()).toEqual(['198.51.100.9']);
    await user.clear(search);
    await user.type(search, '192.0.2');
    expect(shownIps()).toEqual(['192.0.2.1']);
    await user.selectOptions(filter, 'Clean');
    expect(screen.getByText('No Results Found')).toBeInTheDocument();
    expect(shownIps()).toEqual([]);
  });

  it('View Details lists every answer, listings first with their removal link; Hide Details closes it', async () => {
    stubBlacklist([makeIp({ blacklistCount: 1, reputationDetails: [makeAnswer(), LISTED, UNKNOWN] })]);
    await openPage();
    const user = userEvent.setup();
    const element = within(await card('203.0.113.25'));
    expect(element.queryByTestId('list-answers')).not.toBeInTheDocument();
    await user.click(element.getByRole('button', { name: 'View Details' }));
    const answers = element.getAllByTestId('list-answer');
    expect(answers.map((answer) => answer.getAttribute('data-status'))).toEqual(['listed', 'unknown', 'clear']);
    const listed = within(answers[0]);
    expect(listed.getByText('SpamCop')).toBeInTheDocument();
    expect(listed.getByTestId('answer-status')).toHaveTextContent('Listed');
    expect(listed.getByText('Listed: reported as a spam source')).toBeInTheDocument();
    expect(listed.getByText(/TXT: Blocked - see/)).toBeInTheDocument();
    expect(listed.getByRole('link', { name: /Request removal/ })).toHaveAttribute(
      'href',
      'https://www.spamcop.net/bl.shtml',
    );
    expect(within(answers[1]).getByTestId('answer-status')).toHaveTextContent('Unknown');
    expect(within(answers[1]).getByText('No answer within 3 s')).toBeInTheDocument();
    expect(within(answers[1]).queryByRole('link')).not.toBeInTheDocument();
    expect(within(answers[2]).getByTestId('answer-status')).toHaveTextContent('Clear');
    expect(within(answers[2]).queryByRole('link')).not.toBeInTheDocument();
    await user.click(element.getByRole('button', { name: 'Hide Details' }));
    expect(element.queryByTestId('list-answers')).not.toBeInTheDocument();
  });

  it('the Ignore switch sends PUT /api/blocklists/:id/ignore and asks for the counts again', async () => {
    let list: IpAddress[] = [makeIp({ blacklistCount: 1, reputationDetails: [LISTED] })];
    const fetchMock = stubBlacklist(() => list, {
      'PUT /api/blocklists/spamcop/ignore': () => {
        list = [makeIp({ blacklistCount: 0, reputationDetails: [{ ...LISTED, ignored: true }] })];
        return jsonResponse({
          id: 'spamcop',
          name: 'SpamCop',
          zone: 'bl.spamcop.net',
          kind: 'ip',
          tier: 2,
          ipv6: false,
          removalUrl: LISTED.removalUrl,
          ignored: true,
        });
      },
    });
    await openPage();
    const user = userEvent.setup();
    const element = within(await card('203.0.113.25'));
    await user.click(element.getByRole('button', { name: 'View Details' }));
    const toggle = element.getByRole('switch', { name: 'Ignore SpamCop' });
    expect(toggle).toHaveAttribute('aria-checked', 'false');
    await user.click(toggle);
    expect(await screen.findByText('List ignored')).toBeInTheDocument();
    expect(bodyOf(fetchMock, 'PUT /api/blocklists/spamcop/ignore')).toEqual({ ignored: true });
    await waitFor(() => expect(element.getByTestId('blacklist-badge')).toHaveTextContent('Clean'));
    expect(element.getByRole('switch', { name: 'Ignore SpamCop' })).toHaveAttribute('aria-checked', 'true');
  });

  it('shows the domains against the domain lists in their own section', async () => {
    stubBlacklist([], {
      'GET /api/reputation/domains': () =>
        jsonResponse([
          makeDomainReputation({
            domain: 'shop.example.com',
            blacklistCount: 1,
            reputationDetails: [
              makeAnswer({
                listId: 'spamhaus-dbl',
                provider: 'Spamhaus DBL',
                zone: 'dbl.spamhaus.org',
                status: 'listed',
                listed: true,
                reason: 'Spam domain',
              }),
              makeAnswer({ listId: 'surbl', provider: 'SURBL', zone: 'multi.surbl.org' }),
            ],
          }),
          makeDomainReputation({ id: 2, domain: 'example.org' }),
        ]),
    });
    await openPage();
    const rows = await screen.findAllByTestId('domain-listing');
    const listed = within(rows[0]);
    expect(listed.getByTestId('blacklist-badge')).toHaveTextContent('Warning');
    expect(listed.getByText('Listed on 1 of 9 domain lists')).toBeInTheDocument();
    expect(listed.getByText('Spamhaus DBL')).toBeInTheDocument();
    expect(listed.queryByText('SURBL')).not.toBeInTheDocument();
    expect(within(rows[1]).getByTestId('blacklist-badge')).toHaveTextContent('Clean');
  });
});

describe('Blacklist Monitoring: Refresh Monitoring', () => {
  it('shows progress while the run goes, polls the status, and shows the new results when it ends', async () => {
    let running = false;
    let statusCalls = 0;
    let list = [makeIp()];
    stubBlacklist(() => list, {
      'POST /api/ip-monitoring/trigger': () => {
        running = true;
        return jsonResponse({ started: true, status: makeStatus({ isRunning: true }) }, 202);
      },
      'GET /api/ip-monitoring/status': () => {
        statusCalls += 1;
        // The run writes its results by the first poll after the trigger and is over at the next one.
        if (running && statusCalls > 1) {
          running = false;
          list = [makeIp({ blacklistCount: 1, status: 'warning', reputationDetails: [LISTED] })];
          return jsonResponse(makeStatus({ isRunning: true }));
        }
        return jsonResponse(makeStatus());
      },
    });
    await openPage();
    const user = userEvent.setup();
    expect(within(await card('203.0.113.25')).getByTestId('blacklist-badge')).toHaveTextContent('Clean');
    await user.click(screen.getByRole('button', { name: 'Refresh Monitoring' }));
    expect(await screen.findByTestId('monitoring-progress')).toHaveTextContent(
      'Checking 1 IP address against 40 lists',
    );
    expect(screen.getByRole('button', { name: 'Refresh Monitoring' })).toBeDisabled();
    await waitFor(() => expect(screen.queryByTestId('monitoring-progress')).not.toBeInTheDocument(), { timeout: 8000 });
    await waitFor(() =>
      expect(within(screen.getByTestId('blacklist-ip-card')).getByTestId('blacklist-badge')).toHaveTextContent(
        'Warning',
      ),
    );
    expect(statusCalls).toBeGreaterThanOrEqual(3);
    expect(screen.getByRole('button', { name: 'Refresh Monitoring' })).toBeEnabled();
  }, 15_000);

  it('toasts "Failed to trigger monitoring" when the trigger fails', async () => {
    stubBlacklist([makeIp()], {
      'POST /api/ip-monitoring/trigger': () => errorResponse(500, 'internal', 'Something went wrong'),
    });
    await openPage();
    const user = userEvent.setup();
    await card('203.0.113.25');
    await user.click(screen.getByRole('button', { name: 'Refresh Monitoring' }));
    expect(await screen.findByText('Failed to trigger monitoring')).toBeInTheDocument();
    expect(screen.queryByTestId('monitoring-progress')).not.toBeInTheDocument();
  });
});
