import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { errorResponse, jsonResponse, makeDomain } from '../../../test/test-utils';
import {
  emptyAnalytics,
  makeAnalytics,
  makeReport,
  openDmarcPanel,
  REPORT_ADDRESS,
  reportList,
  reportsFor,
  stubDmarc,
  setUpDmarcPanelTests,
  urlsOf,
} from '../test/fixtures';

setUpDmarcPanelTests();

describe('DMARC panel: empty state', () => {
  it('explains how to get reports: the rua= tag with the report address, copyable, and the upload', async () => {
    stubDmarc({
      analytics: () => jsonResponse(emptyAnalytics()),
      reports: () => jsonResponse({ items: [], total: 0, page: 1, pageSize: 10 }),
    });
    const { panel, user } = await openDmarcPanel();
    expect(await panel.findByText('No DMARC reports for example.com in the last 30 days')).toBeInTheDocument();
    const tag = await panel.findByTestId('rua-tag');
    expect(tag).toHaveTextContent(`rua=mailto:${REPORT_ADDRESS}`);
    expect(panel.getByText('_dmarc.example.com')).toBeInTheDocument();
    await user.click(panel.getByRole('button', { name: 'Copy rua tag' }));
    expect(await navigator.clipboard.readText()).toBe(`rua=mailto:${REPORT_ADDRESS}`);
    expect(panel.getByRole('button', { name: 'Upload DMARC report' })).toBeEnabled();
    expect(await panel.findByText('No reports for this domain yet.')).toBeInTheDocument();
    // No figures or charts pretend there is data.
    expect(panel.queryByTestId('dmarc-figures')).not.toBeInTheDocument();
    expect(panel.queryByTestId('dmarc-charts')).not.toBeInTheDocument();
  });

  it('tells the owner of an unverified domain that e-mailed reports need verification', async () => {
    stubDmarc({
      domains: [makeDomain({ isVerified: false, status: 'pending' })],
      analytics: () => jsonResponse(emptyAnalytics()),
      reports: () => jsonResponse(reportList([])),
    });
    const { panel } = await openDmarcPanel();
    expect(await panel.findByText(/reach you once example.com is verified/)).toBeInTheDocument();
  });

  it('still shows a reporter that stopped, since that is why the period is empty', async () => {
    const analytics = emptyAnalytics({
      reporters: [
        {
          orgName: 'Outlook.com',
          lastReportAt: new Date(Date.now() - 40 * 86_400_000).toISOString(),
          reports: 20,
          silentDays: 40,
          daily: true,
          stopped: true,
        },
      ],
    });
    stubDmarc({ analytics: () => jsonResponse(analytics) });
    const { panel } = await openDmarcPanel();
    expect(await panel.findByText('No DMARC reports for example.com in the last 30 days')).toBeInTheDocument();
    expect(panel.getByTestId('reporter-stopped')).toHaveTextContent('No report for 40 days');
  });

  it('does not show the how-to-get-reports empty state above older reports: it says where they are and widens the period', async () => {
    const begin = new Date(Date.now() - 45 * 86_400_000).toISOString().slice(0, 10);
    const older = makeReport({ dateBegin: `${begin}T00:00:00.000Z`, dateEnd: `${begin}T23:59:59.000Z` });
    const fetchMock = stubDmarc({
      analytics: (url) =>
        jsonResponse(url.searchParams.get('days') === '90' ? makeAnalytics({ days: 90 }) : emptyAnalytics()),
      reports: (url) => jsonResponse(reportList(url.searchParams.get('domain') ? [older] : [])),
    });
    const { panel, user } = await openDmarcPanel();
    const notice = within(await panel.findByTestId('dmarc-nothing-in-period'));
    expect(notice.getByText('No DMARC reports for example.com in the last 30 days')).toBeInTheDocument();
    expect(
      notice.getByText(/The latest report covers .*; older reports are listed under Reports for example\.com below\./),
    ).toBeInTheDocument();
    expect(panel.queryByTestId('dmarc-empty')).not.toBeInTheDocument();
    expect(panel.queryByTestId('rua-tag')).not.toBeInTheDocument();
    expect(await panel.findAllByTestId('dmarc-report')).toHaveLength(1);

    await user.click(notice.getByRole('button', { name: 'Show the last 90 days' }));
    expect(await panel.findByTestId('dmarc-figures')).toBeInTheDocument();
    expect(urlsOf(fetchMock, '/api/dmarc/analytics').map((url) => url.searchParams.get('days'))).toContain('90');
    expect(panel.getByRole('button', { name: '90 days' })).toHaveAttribute('aria-pressed', 'true');
  });
  it('keeps the how-to-get-reports empty state when the only reports are kept apart, and says so over the list', async () => {
    stubDmarc({
      analytics: () => jsonResponse(emptyAnalytics()),
      reports: (url) => jsonResponse(reportsFor(url, [makeReport({ senderAuthenticated: false })])),
    });
    const { panel } = await openDmarcPanel();
    expect(await panel.findByTestId('rua-tag')).toBeInTheDocument();
    expect(panel.queryByTestId('dmarc-nothing-in-period')).not.toBeInTheDocument();
    expect(await panel.findByTestId('unauthenticated-reports-note')).toHaveTextContent(
      '1 unauthenticated report is kept apart: it is not counted in your figures.',
    );
  });
});

describe('DMARC panel: analytics', () => {
  it('shows the figures, failing sources, sending sources, recommendations and reporters', async () => {
    stubDmarc();
    const { panel } = await openDmarcPanel();

    const figures = within(await panel.findByTestId('dmarc-figures'));
    const figure = (label: string) => figures.getByText(label).nextElementSibling;
    expect(figure('Reports')).toHaveTextContent('14');
    expect(figure('Messages')).toHaveTextContent('12,345');
    expect(figure('Average compliance')).toHaveTextContent('96.4%');
    expect(figure('Failing sources')).toHaveTextContent('5');
    const bySeverity = within(figures.getByRole('list', { name: 'Failing sources by severity' }));
    expect(bySeverity.getByText('Critical 1')).toHaveAttribute('data-tone', 'bad');
    expect(bySeverity.getByText('Medium 1')).toHaveAttribute('data-tone', 'warn');
    expect(bySeverity.getByText('Low 3')).toBeInTheDocument();

    const threats = panel.getAllByTestId('dmarc-threat');
    expect(threats).toHaveLength(2);
    expect(threats[0]).toHaveTextContent('Critical');
    expect(threats[0]).toHaveTextContent('Nothing authenticated this mail');
    expect(threats[0]).toHaveTextContent('1,200 failed messages');
    expect(threats[0]).toHaveTextContent('203.0.113.9');
    expect(threats[0]).toHaveTextContent('likely spoofing');
    expect(threats[1]).toHaveTextContent('Authenticated for another domain');
    expect(threats[1]).toHaveTextContent('42 failed messages');

    const sources = panel.getAllByTestId('dmarc-source');
    expect(sources).toHaveLength(2);
    const google = within(sources[0]);
    // The Source column names the sender (known provider, its reverse DNS under it); the IP column has the IPs.
    expect(google.getByText('Google')).toBeInTheDocument();
    expect(google.getByText('recognised by its reverse DNS, mail-sor-f41.google.com')).toBeInTheDocument();
    expect(sources[0]).toHaveTextContent('209.85.220.41, 209.85.220.42, 209.85.220.43 and 1 more');
    expect(sources[0]).toHaveTextContent('10,000');
    expect(sources[0]).toHaveTextContent('99.0%'); // SPF aligned
    expect(sources[0]).toHaveTextContent('100.0%'); // DKIM aligned
    expect(sources[0]).toHaveTextContent('none 10,000');
    // Without reverse DNS or any other domain, the source is unknown: its IP shows once, in the IP column.
    expect(within(sources[1]).getByText('Unknown sender')).toBeInTheDocument();
    expect(within(sources[1]).getAllByText('203.0.113.9')).toHaveLength(1);
    expect(sources[1]).toHaveTextContent('0.0%');
    expect(sources[1]).toHaveTextContent('reject 1,100, quarantine 100');

    expect(
      panel.getByText('Set up DKIM signing for example.com at mailchimp.com, then move to p=quarantine.'),
    ).toBeInTheDocument();

    const reporters = panel.getAllByTestId('dmarc-reporter');
    // The stopped reporter comes first: it needs attention.
    expect(reporters[0]).toHaveTextContent('Yahoo');
    expect(within(reporters[0]).getByTestId('reporter-stopped')).toHaveTextContent('No report for 5 days');
    expect(reporters[0]).toHaveTextContent('(5d ago)');
    expect(reporters[1]).toHaveTextContent('google.com');
    expect(reporters[1]).toHaveTextContent('Daily');
    expect(reporters[1]).toHaveTextContent('(1d ago)');
    expect(reporters[1]).toHaveTextContent('10 reports');
    expect(within(reporters[1]).queryByTestId('reporter-stopped')).not.toBeInTheDocument();

    const charts = await panel.findByTestId('dmarc-charts');
    expect(charts).toHaveTextContent('Latest 93.9% on 2025-03-02; lowest 93.9% on 2025-03-02.');
    expect(charts).toHaveTextContent('Busiest day 2025-03-02 with 6,345 messages.');
  });

  it('asks for the domain and 30 days first, and for 90 days when the period changes', async () => {
    const fetchMock = stubDmarc({
      analytics: (url) =>
        jsonResponse(
          url.searchParams.get('days') === '90' ? makeAnalytics({ days: 90, totalReports: 77 }) : makeAnalytics(),
        ),
    });
    const { panel, user } = await openDmarcPanel();
    const figures = await panel.findByTestId('dmarc-figures');
    expect(within(figures).getByText('Reports').nextElementSibling).toHaveTextContent('14');
    expect(urlsOf(fetchMock, '/api/dmarc/analytics').map((url) => url.search)).toEqual(['?domain=example.com&days=30']);

    await user.click(panel.getByRole('button', { name: '90 days' }));
    await waitFor(() =>
      expect(urlsOf(fetchMock, '/api/dmarc/analytics').map((url) => url.searchParams.get('days'))).toContain('90'),
    );
    await waitFor(() =>
      expect(within(panel.getByTestId('dmarc-figures')).getByText('Reports').nextElementSibling).toHaveTextContent(
        '77',
      ),
    );
    expect(panel.getByRole('button', { name: '90 days' })).toHaveAttribute('aria-pressed', 'true');
    expect(panel.getByRole('button', { name: '30 days' })).toHaveAttribute('aria-pressed', 'false');
  });

  it('shows skeletons while the analytics load', async () => {
    stubDmarc({ analytics: () => new Promise<Response>(() => {}) });
    const { panel } = await openDmarcPanel();
    expect(await panel.findByTestId('dmarc-skeleton')).toHaveTextContent('Loading DMARC analytics');
  });

  it('shows the server message when the analytics fail, and Try again loads them', async () => {
    let calls = 0;
    stubDmarc({
      analytics: () => {
        calls += 1;
        return calls === 1
          ? errorResponse(503, 'unavailable', 'The database is busy, try again in a moment')
          : jsonResponse(makeAnalytics());
      },
    });
    const { panel, user } = await openDmarcPanel();
    const alert = await panel.findByRole('alert');
    expect(alert).toHaveTextContent('The database is busy, try again in a moment');
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await panel.findByTestId('dmarc-figures')).toBeInTheDocument();
  });

  it('the toggle opens and closes the panel', async () => {
    stubDmarc();
    const { user } = await openDmarcPanel();
    const toggle = screen.getByRole('button', { name: 'Hide DMARC reports' });
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await user.click(toggle);
    expect(screen.queryByTestId('dmarc-panel')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Show DMARC reports' })).toHaveAttribute('aria-expanded', 'false');
  });
});
