import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import type { IpAddress } from '@contracts/reputation';
import { bodyOf, errorResponse, jsonResponse, makeDomain, renderApp, settled } from '../../test/test-utils';
import { makeDomainReputation, makeIp, stubReputation } from './test/fixtures';

beforeAll(async () => {
  await Promise.all([
    import('./reputation-page'),
    import('../../app/shell/app-shell'),
    import('../../components/ui/toaster'),
  ]);
});

async function openPage() {
  const app = renderApp('/reputation');
  await screen.findByTestId('reputation-page');
  return app;
}

async function row(ip: string) {
  const rows = await screen.findAllByTestId('ip-row');
  const match = rows.find((element) => element.getAttribute('data-ip') === ip);
  if (!match) throw new Error(`No row for ${ip}`);
  return match;
}

async function openDialog(user: ReturnType<typeof userEvent.setup>) {
  await user.click(screen.getByRole('button', { name: 'Add IP Address' }));
  return within(await screen.findByTestId('add-ip-dialog'));
}

/** Opens the page, then Add IP Address on its Bulk Import tab. */
async function openBulkImport() {
  await openPage();
  const user = userEvent.setup();
  const dialog = await openDialog(user);
  await user.click(dialog.getByRole('tab', { name: 'Bulk Import' }));
  return { user, dialog };
}

describe('Reputation: lists and metrics', () => {
  it('with nothing monitored shows honest empty states and no suggestions card', async () => {
    stubReputation([]);
    const app = await openPage();
    expect(await screen.findByText('No IP addresses monitored yet')).toBeInTheDocument();
    await settled(app);
    const metrics = within(screen.getByTestId('global-metrics'));
    expect(metrics.getByTestId('metric-monitored')).toHaveTextContent('0');
    expect(metrics.getByTestId('metric-average')).toHaveTextContent('Not scored yet');
    expect(metrics.getByTestId('metric-listed')).toHaveTextContent('No check has run yet');
    expect(within(screen.getByTestId('domain-reputation')).getByText(/No domains yet/)).toBeInTheDocument();
    expect(screen.queryByTestId('suggested-ips')).not.toBeInTheDocument();
  });

  it.each([
    ['clean', 'Clean'],
    ['caution', 'Caution'],
    ['warning', 'Warning'],
    ['blocked', 'Blocked'],
    ['critical', 'Critical'],
    ['pending', 'Checking'],
    ['unknown', 'Unknown'],
  ] as const)('shows IP status %s as "%s"', async (status, label) => {
    stubReputation([makeIp({ status })]);
    await openPage();
    expect(within(await row('203.0.113.25')).getByTestId('ip-status')).toHaveTextContent(label);
  });

  it('colours sender scores 90+ green, 70+ yellow, else red, and averages them', async () => {
    stubReputation([
      makeIp({ id: 1, ipAddress: '203.0.113.1', senderScore: 90 }),
      makeIp({ id: 2, ipAddress: '203.0.113.2', senderScore: 70, blacklistCount: 1 }),
      makeIp({ id: 3, ipAddress: '203.0.113.3', senderScore: 69, blacklistCount: 3 }),
      makeIp({ id: 4, ipAddress: '203.0.113.4', senderScore: null, lastChecked: null, status: 'pending' }),
    ]);
    await openPage();
    const tones = await Promise.all(
      ['203.0.113.1', '203.0.113.2', '203.0.113.3', '203.0.113.4'].map(async (ip) =>
        within(await row(ip)).getByTestId('sender-score'),
      ),
    );
    expect(tones.map((element) => element.getAttribute('data-tone'))).toEqual(['good', 'warn', 'bad', 'none']);
    expect(tones[3]).toHaveTextContent('Not scored yet');
    expect(screen.getByTestId('metric-average')).toHaveTextContent('76.3');
    expect(screen.getByTestId('metric-listed')).toHaveTextContent('2of 3 checked');
  });

  it('shows each domain with its score, a label from the score, age and registrar, and "Unknown" for what RDAP did not say', async () => {
    stubReputation([], {
      'GET /api/reputation/domains': () =>
        jsonResponse([
          makeDomainReputation(),
          makeDomainReputation({ id: 2, domain: 'shop.example.org', reputationScore: 62, domainAge: 0 }),
          makeDomainReputation({
            id: 3,
            domain: 'new.example.net',
            reputationScore: null,
            domainAge: null,
            registrar: null,
            lastChecked: null,
          }),
        ]),
    });
    await openPage();
    const rows = await screen.findAllByTestId('domain-reputation-row');
    const [good, poor, unknown] = rows.map((element) => within(element));
    expect(good.getByTestId('domain-score')).toHaveTextContent('95/100 · Excellent');
    expect(good.getByTestId('domain-age')).toHaveTextContent('12 years');
    expect(good.getByTestId('domain-registrar')).toHaveTextContent('Example Registrar, Inc.');
    expect(good.getByTestId('domain-listed-count')).toHaveTextContent('0 of 9 domain lists');
    expect(unknown.getByTestId('domain-listed-count')).toHaveTextContent('Not checked yet');
    expect(poor.getByTestId('domain-score')).toHaveTextContent('62/100 · Poor');
    expect(poor.getByTestId('domain-score')).toHaveAttribute('data-tone', 'bad');
    expect(poor.getByTestId('domain-age')).toHaveTextContent('Under 1 year');
    expect(unknown.getByTestId('domain-score')).toHaveTextContent('Not scored yet');
    expect(unknown.getByTestId('domain-age')).toHaveTextContent('Unknown');
    expect(unknown.getByTestId('domain-registrar')).toHaveTextContent('Unknown');
    expect(screen.getByTestId('metric-domains')).toHaveTextContent('2of 3 domains');
  });

  it('opens an IP to show how its score was made and its listing history', async () => {
    stubReputation([makeIp()], {
      'GET /api/reputation/listings': () =>
        jsonResponse([
          {
            listId: 'spamcop',
            provider: 'SpamCop',
            target: '203.0.113.25',
            listedAt: '2025-02-10T08:00:00.000Z',
            delistedAt: '2025-02-11T09:00:00.000Z',
            reason: 'Reported by spam traps',
          },
          {
            listId: 'psbl',
            provider: 'PSBL',
            target: '203.0.113.25',
            listedAt: '2025-02-20T08:00:00.000Z',
            delistedAt: null,
            reason: null,
          },
        ]),
    });
    await openPage();
    const user = userEvent.setup();
    const element = within(await row('203.0.113.25'));
    // Its whole history on one time axis is one click away.
    expect(element.getByRole('link', { name: 'Timeline of 203.0.113.25' })).toHaveAttribute(
      'href',
      expect.stringMatching(/^\/reputation\/ips\/\d+\/timeline$/),
    );
    expect(element.queryByTestId('ip-details')).not.toBeInTheDocument();
    await user.click(element.getByRole('button', { name: /Show score/ }));
    const details = within(element.getByTestId('ip-details'));
    expect(details.getByText('Reverse DNS')).toBeInTheDocument();
    expect(details.getByText('−4')).toBeInTheDocument();
    const timeline = within(await details.findByTestId('listing-timeline'));
    const entries = timeline.getAllByRole('listitem');
    expect(entries[0]).toHaveTextContent('PSBL');
    expect(entries[0]).toHaveTextContent('still listed');
    expect(entries[1]).toHaveTextContent('SpamCop');
    expect(entries[1]).toHaveTextContent('Reported by spam traps');
    await user.click(element.getByRole('button', { name: /Hide score/ }));
    expect(element.queryByTestId('ip-details')).not.toBeInTheDocument();
  });
});

describe("Reputation: a domain's score and listing history", () => {
  it('opens a checked domain to show how its score was made and its listing history, asked for that domain', async () => {
    const fetchMock = stubReputation([], {
      'GET /api/reputation/domains': () =>
        jsonResponse([
          makeDomainReputation({
            id: 7,
            domain: 'brand.example',
            reputationScore: 65,
            scoreFactors: [
              {
                label: 'Listed on Spamhaus DBL (tier 1)',
                points: 35,
                detail: 'Large mailbox providers refuse or filter mail from senders on Spamhaus DBL.',
              },
            ],
          }),
          makeDomainReputation({
            id: 8,
            domain: 'new.example',
            reputationScore: null,
            scoreFactors: [],
            lastChecked: null,
          }),
        ]),
      'GET /api/reputation/listings': () =>
        jsonResponse([
          {
            listId: 'spamhaus-dbl',
            provider: 'Spamhaus DBL',
            target: 'brand.example',
            listedAt: '2025-02-20T08:00:00.000Z',
            delistedAt: null,
            reason: 'spam domain',
          },
        ]),
    });
    await openPage();
    const user = userEvent.setup();
    const checked = within(
      (await screen.findAllByTestId('domain-reputation-row')).find((r) => r.dataset.domain === 'brand.example')!,
    );
    const unchecked = within(
      screen.getAllByTestId('domain-reputation-row').find((r) => r.dataset.domain === 'new.example')!,
    );
    expect(unchecked.queryByText(/How this score is made/)).not.toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([url]) => String(url).includes('/api/reputation/listings'))).toBe(false);
    await user.click(checked.getByText('How this score is made, and listing history'));
    const details = within(checked.getByTestId('domain-details'));
    expect(details.getByText('Listed on Spamhaus DBL (tier 1)')).toBeInTheDocument();
    const timeline = within(await details.findByTestId('listing-timeline'));
    expect(timeline.getByRole('listitem')).toHaveTextContent('Spamhaus DBL');
    expect(timeline.getByRole('listitem')).toHaveTextContent('still listed');
    expect(fetchMock.mock.calls.some(([url]) => String(url).endsWith('/api/reputation/listings?domainId=7'))).toBe(
      true,
    );
  });
});

describe('Reputation: Add IP Address dialog', () => {
  it('Single IP: an empty address gives "Please enter an IP address" and sends nothing', async () => {
    const fetchMock = stubReputation([]);
    await openPage();
    const user = userEvent.setup();
    const dialog = await openDialog(user);
    expect(dialog.getByRole('tab', { name: 'Single IP' })).toHaveAttribute('aria-selected', 'true');
    await user.click(dialog.getByRole('button', { name: 'Add IP Address' }));
    expect(await dialog.findByText('Please enter an IP address')).toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'POST')).toBe(false);
  });

  it('Single IP: associated domains only for a shared IP; adds, toasts "Success" and lists the new IP', async () => {
    let list: IpAddress[] = [];
    const fetchMock = stubReputation(() => list, {
      'GET /api/domains': () => jsonResponse([makeDomain(), makeDomain({ id: 2, domain: 'news.example.org' })]),
      'POST /api/ip-addresses': () => {
        const added = makeIp({
          id: 9,
          ipAddress: '198.51.100.7',
          label: 'Pool',
          type: 'shared',
          associatedDomains: ['news.example.org'],
          status: 'pending',
        });
        list = [added];
        return jsonResponse(added, 201);
      },
    });
    await openPage();
    const user = userEvent.setup();
    const dialog = await openDialog(user);
    const domainBox = await dialog.findByRole('checkbox', { name: 'news.example.org' });
    expect(dialog.getByRole('radio', { name: 'Dedicated' })).toBeChecked();
    expect(domainBox).toBeDisabled();
    await user.click(dialog.getByRole('radio', { name: 'Shared' }));
    expect(domainBox).toBeEnabled();
    await user.click(domainBox);
    await user.type(dialog.getByLabelText('IP address'), ' 198.51.100.7 ');
    await user.type(dialog.getByLabelText('Label'), 'Pool');
    await user.click(dialog.getByRole('button', { name: 'Add IP Address' }));
    expect(await screen.findByText('Success')).toBeInTheDocument();
    expect(bodyOf(fetchMock, 'POST /api/ip-addresses')).toEqual({
      ipAddress: '198.51.100.7',
      label: 'Pool',
      type: 'shared',
      associatedDomains: ['news.example.org'],
    });
    expect(within(await row('198.51.100.7')).getByTestId('ip-status')).toHaveTextContent('Checking');
    expect(screen.queryByTestId('add-ip-dialog')).not.toBeInTheDocument();
  });

  it('Single IP: shows the server message, or "Failed to add IP address" when it gave none', async () => {
    let answer = () => errorResponse(409, 'conflict', 'You already monitor 203.0.113.25');
    stubReputation([], { 'POST /api/ip-addresses': () => answer() });
    await openPage();
    const user = userEvent.setup();
    const dialog = await openDialog(user);
    await user.type(dialog.getByLabelText('IP address'), '203.0.113.25{Enter}');
    expect((await screen.findAllByText('You already monitor 203.0.113.25')).length).toBeGreaterThan(0);
    expect(dialog.getByLabelText('IP address')).toHaveAttribute('aria-invalid', 'true');
    answer = () => new Response('', { status: 502 });
    await user.click(dialog.getByRole('button', { name: 'Add IP Address' }));
    expect((await screen.findAllByText('Failed to add IP address')).length).toBeGreaterThan(0);
  });

  it('Bulk Import on a plan without bulk_ip_import shows the plan banner instead of the form', async () => {
    stubReputation([], {}, { subscriptionPlan: 'free' });
    const { dialog } = await openBulkImport();
    const banner = within(dialog.getByTestId('bulk-import-plan-banner'));
    expect(banner.getByText('Requires Professional plan')).toBeInTheDocument();
    expect(dialog.queryByTestId('bulk-import-form')).not.toBeInTheDocument();
    expect(banner.getByRole('link', { name: 'Upgrade' })).toHaveAttribute('href', '/pricing?plan=professional');
  });

  it('Bulk Import: empty block gives "Please enter a CIDR block"; the count follows the block; imports and toasts the count', async () => {
    let list: IpAddress[] = [];
    const fetchMock = stubReputation(
      () => list,
      {
        'POST /api/ip-addresses/bulk-import': () => {
          list = [makeIp({ id: 3, ipAddress: '203.0.113.0', label: 'Pool #1' })];
          return jsonResponse({ imported: 128 });
        },
      },
      { subscriptionPlan: 'professional' },
    );
    const { user, dialog } = await openBulkImport();
    const form = within(dialog.getByTestId('bulk-import-form'));
    expect(form.getByRole('radio', { name: 'Shared' })).toBeChecked();
    await user.click(form.getByRole('button', { name: 'Import IP Addresses' }));
    expect(await form.findByText('Please enter a CIDR block')).toBeInTheDocument();
    const block = form.getByLabelText('CIDR block');
    await user.type(block, '203.0.113.0/24');
    expect(form.getByTestId('cidr-count')).toHaveTextContent('This block adds 256 IP addresses.');
    await user.type(block, '{Backspace}5');
    expect(form.getByTestId('cidr-count')).toHaveTextContent('This block adds 128 IP addresses.');
    await user.type(form.getByLabelText('Label template'), 'Pool');
    expect(form.getByText('Each address is labelled "Pool #1", "Pool #2" and so on.')).toBeInTheDocument();
    await user.click(form.getByRole('button', { name: 'Import IP Addresses' }));
    expect(await screen.findByText('Imported 128 IP addresses from 203.0.113.0/25.')).toBeInTheDocument();
    expect(screen.getByText('Success')).toBeInTheDocument();
    expect(bodyOf(fetchMock, 'POST /api/ip-addresses/bulk-import')).toEqual({
      cidrBlock: '203.0.113.0/25',
      label: 'Pool',
      type: 'shared',
      associatedDomains: [],
    });
    expect(await row('203.0.113.0')).toBeInTheDocument();
  });

  it('Bulk Import: says when a block is beyond one import, and shows the server 403 if the plan changed meanwhile', async () => {
    stubReputation(
      [],
      { 'POST /api/ip-addresses/bulk-import': () => errorResponse(403, 'forbidden', 'Requires Professional plan') },
      { subscriptionPlan: 'professional' },
    );
    const { user, dialog } = await openBulkImport();
    const form = within(dialog.getByTestId('bulk-import-form'));
    await user.type(form.getByLabelText('CIDR block'), '10.0.0.0/16');
    expect(form.getByTestId('cidr-count')).toHaveTextContent(
      'This block holds 65,536 IP addresses; one import adds at most 1,024.',
    );
    await user.clear(form.getByLabelText('CIDR block'));
    await user.type(form.getByLabelText('CIDR block'), '203.0.113.0/30{Enter}');
    expect((await screen.findAllByText('Requires Professional plan')).length).toBeGreaterThan(0);
    expect(form.getByLabelText('CIDR block')).toHaveAttribute('aria-invalid', 'true');
  });
});

describe('Reputation: delete and suggestions', () => {
  it('deletes an IP after confirmation and toasts "Success"; a failure shows "Failed to delete IP address"', async () => {
    let list = [makeIp(), makeIp({ id: 2, ipAddress: '203.0.113.26' })];
    let fail = true;
    stubReputation(() => list, {
      'DELETE /api/ip-addresses/1': () => {
        if (fail) return new Response('', { status: 500 });
        list = list.filter((ip) => ip.id !== 1);
        return new Response(null, { status: 204 });
      },
    });
    await openPage();
    const user = userEvent.setup();
    await user.click(within(await row('203.0.113.25')).getByRole('button', { name: 'Delete 203.0.113.25' }));
    const dialog = within(await screen.findByRole('alertdialog'));
    expect(dialog.getByText(/stop monitoring 203.0.113.25/)).toBeInTheDocument();
    await user.click(dialog.getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Failed to delete IP address')).toBeInTheDocument();
    fail = false;
    await user.click(dialog.getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Success')).toBeInTheDocument();
    await waitFor(() => expect(screen.getAllByTestId('ip-row')).toHaveLength(1));
  });

  it('suggests senders from DMARC reports; Monitor adds one as shared with its domains', async () => {
    let suggestions = [
      {
        ipAddress: '192.0.2.44',
        domains: ['example.com'],
        messages: 1200,
        passed: 1188,
        lastSeen: '2025-03-01T00:00:00.000Z',
      },
    ];
    const fetchMock = stubReputation([], {
      'GET /api/ip-addresses/suggestions': () => jsonResponse(suggestions),
      'POST /api/ip-addresses': () => {
        suggestions = [];
        return jsonResponse(makeIp({ ipAddress: '192.0.2.44' }), 201);
      },
    });
    await openPage();
    const user = userEvent.setup();
    const card = within(await screen.findByTestId('suggested-ips'));
    expect(card.getByText(/1,188 of 1,200 messages passed/)).toBeInTheDocument();
    await user.click(card.getByRole('button', { name: 'Monitor 192.0.2.44' }));
    expect(await screen.findByText('Success')).toBeInTheDocument();
    expect(bodyOf(fetchMock, 'POST /api/ip-addresses')).toEqual({
      ipAddress: '192.0.2.44',
      label: 'Seen in DMARC reports',
      type: 'shared',
      associatedDomains: ['example.com'],
    });
    await waitFor(() => expect(screen.queryByTestId('suggested-ips')).not.toBeInTheDocument());
  });
});
