import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { DmarcReport } from '@contracts/dmarc';
import { errorResponse, jsonResponse, makeDomain, settled } from '../../../test/test-utils';
import {
  makeFailedImport,
  makeReport,
  makeReportDetail,
  openDmarcPanel,
  reportList,
  reportsFor,
  stubDmarc,
  setUpDmarcPanelTests,
  urlsOf,
} from '../test/fixtures';

setUpDmarcPanelTests();

function domainReports(panel: Awaited<ReturnType<typeof openDmarcPanel>>['panel']) {
  return within(panel.getByRole('region', { name: 'Reports for example.com' }));
}

describe('DMARC panel: reports list', () => {
  it('lists the domain reports with reporter, period, messages, compliance and status', async () => {
    const fetchMock = stubDmarc({
      reports: (url) =>
        jsonResponse(
          url.searchParams.get('status') === 'failed'
            ? reportList([])
            : reportList([
                makeReport(),
                makeReport({
                  id: 2,
                  orgName: 'Yahoo',
                  dateBegin: '2025-02-27T00:00:00.000Z',
                  dateEnd: '2025-03-01T00:00:00.000Z',
                  messageCount: 5,
                  compliance: 100,
                }),
              ]),
        ),
    });
    const { panel } = await openDmarcPanel();
    const rows = await panel.findAllByTestId('dmarc-report');
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent('google.com');
    expect(rows[0]).toHaveTextContent('Mar 1, 2025');
    expect(rows[0]).toHaveTextContent('1,200');
    expect(rows[0]).toHaveTextContent('95.8%');
    expect(rows[0]).toHaveTextContent('Imported');
    expect(rows[1]).toHaveTextContent('Feb 27, 2025 – Feb 28, 2025');
    expect(rows[1]).toHaveTextContent('100.0%');
    expect(panel.getByText('2 reports')).toBeInTheDocument();
    // Failed imports are the account's, not this domain's: never in its panel.
    expect(panel.queryByRole('region', { name: 'Files that could not be imported' })).not.toBeInTheDocument();
    const asked = urlsOf(fetchMock, '/api/dmarc/reports').find(
      (url) => url.searchParams.get('domain') === 'example.com',
    );
    expect(asked?.searchParams.get('page')).toBe('1');
  });

  it('marks a mailed report whose sender was not authenticated, and says why', async () => {
    stubDmarc({
      reports: (url) =>
        jsonResponse(
          reportsFor(url, [
            makeReport({ senderAuthenticated: false }),
            makeReport({ id: 2, orgName: 'Yahoo', senderAuthenticated: true }),
            makeReport({ id: 3 }),
          ]),
        ),
    });
    const { panel } = await openDmarcPanel();
    const rows = await panel.findAllByTestId('dmarc-report');
    expect(rows.map((row) => within(row).queryByTestId('unauthenticated-report') !== null)).toEqual([
      true,
      false,
      false,
    ]);
    // Stored before the server kept its own reason: the general one.
    expect(rows[0]).toHaveTextContent(
      'not signed by the reporting organisation, so anyone could have sent it. Not counted in your figures.',
    );
  });

  it("gives the report's own reason for being unauthenticated, in its row and in its dialog", async () => {
    // The words server/dmarc/report-sender.ts unauthenticatedReason writes.
    const reason =
      'The report says it comes from google.com, but the mail proved only evil.example (a DKIM signature or DMARC pass).';
    const report = makeReport({ senderAuthenticated: false, unauthenticatedReason: reason });
    stubDmarc(
      { reports: (url) => jsonResponse(reportsFor(url, [report])) },
      { 'GET /api/dmarc/reports/1': () => jsonResponse(makeReportDetail(report)) },
    );
    const { panel, user } = await openDmarcPanel();
    const [row] = await domainReports(panel).findAllByTestId('dmarc-report');
    const hint = `${reason} Not counted in your figures.`;
    expect(row).toHaveTextContent(hint);
    expect(within(row!).getByTitle(hint)).toContainElement(within(row!).getByTestId('unauthenticated-report'));
    expect(row).not.toHaveTextContent('anyone could have sent it');

    await user.click(within(row!).getByRole('button', { name: /^Open the report from google.com/ }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Report from google.com' }));
    expect(dialog.getByRole('note')).toHaveTextContent(hint);
  });

  it('filters the reports by sender, starting again from page 1', async () => {
    const reports = [
      makeReport({ orgName: 'Google' }),
      makeReport({ id: 2, orgName: 'forged.example', senderAuthenticated: false }),
    ];
    stubDmarc({
      // Two pages of each list, so that the filter's own page can be seen (the stub ignores page).
      reports: (url) =>
        jsonResponse({ ...reportsFor(url, reports), page: Number(url.searchParams.get('page')), total: 12 }),
    });
    const { panel, user } = await openDmarcPanel();
    const list = domainReports(panel);
    await list.findByText('forged.example');
    await user.click(list.getByRole('button', { name: 'Next' }));
    await list.findByText('Page 2 of 2');
    const sender = list.getByRole('combobox', { name: 'Filter by sender' });

    await user.selectOptions(sender, 'Authenticated');
    await waitFor(() => expect(list.getAllByTestId('dmarc-report')).toHaveLength(1));
    expect(list.getByTestId('dmarc-report')).toHaveTextContent('Google');
    expect(list.getByText('Page 1 of 2')).toBeInTheDocument();

    await user.selectOptions(sender, 'Unauthenticated');
    await waitFor(() => expect(list.getByTestId('dmarc-report')).toHaveTextContent('forged.example'));
    expect(list.getAllByTestId('dmarc-report')).toHaveLength(1);

    await user.selectOptions(sender, 'All senders');
    await waitFor(() => expect(list.getAllByTestId('dmarc-report')).toHaveLength(2));
    expect(list.getByText('Page 1 of 2')).toBeInTheDocument();
  });

  it('says how many reports are kept apart, and its button lists only them', async () => {
    const fetchMock = stubDmarc({
      reports: (url) =>
        jsonResponse(
          reportsFor(url, [
            makeReport({ orgName: 'Google' }),
            makeReport({ id: 2, orgName: 'forged.example', senderAuthenticated: false }),
            makeReport({ id: 3, orgName: 'other.example', senderAuthenticated: false }),
          ]),
        ),
    });
    const { panel, user } = await openDmarcPanel();
    const list = domainReports(panel);
    const note = await list.findByTestId('unauthenticated-reports-note');
    expect(note).toHaveTextContent('2 unauthenticated reports are kept apart: they are not counted in your figures.');
    expect(list.getAllByTestId('dmarc-report')).toHaveLength(3);
    // Asked once, for the count: one report is enough to know the total.
    const counted = urlsOf(fetchMock, '/api/dmarc/reports').find(
      (url) => url.searchParams.get('sender') === 'unauthenticated',
    );
    expect(counted?.searchParams.get('domain')).toBe('example.com');

    await user.click(within(note).getByRole('button', { name: 'Show unauthenticated reports' }));
    await waitFor(() => expect(list.getAllByTestId('dmarc-report')).toHaveLength(2));
    expect(list.getByRole('combobox', { name: 'Filter by sender' })).toHaveValue('unauthenticated');
    expect(list.queryByText('Google')).not.toBeInTheDocument();
    // Already listing them: the line stays, its button goes.
    expect(within(note).queryByRole('button')).not.toBeInTheDocument();
  });

  it('says nothing about reports kept apart when there are none', async () => {
    stubDmarc();
    const { panel, user, queryClient, router } = await openDmarcPanel();
    const list = domainReports(panel);
    await list.findAllByTestId('dmarc-report');
    await settled({ queryClient, router });
    expect(list.queryByTestId('unauthenticated-reports-note')).not.toBeInTheDocument();

    await user.selectOptions(list.getByRole('combobox', { name: 'Filter by sender' }), 'Unauthenticated');
    expect(await list.findByText('No unauthenticated reports for this domain.')).toBeInTheDocument();
    expect(list.queryByTestId('unauthenticated-reports-note')).not.toBeInTheDocument();
  });

  it('shows failed imports with their file name and error in words, in the account-level imports and not under the domain', async () => {
    stubDmarc({
      domains: [makeDomain(), makeDomain({ id: 2, domain: 'news.example.org' })],
      reports: (url) =>
        jsonResponse(url.searchParams.get('status') === 'failed' ? reportList([makeFailedImport()]) : reportList([])),
    });
    const { panel } = await openDmarcPanel();
    const imports = within(await screen.findByTestId('dmarc-imports'));
    const failed = within(await imports.findByRole('region', { name: 'Files that could not be imported' }));
    const row = failed.getByTestId('dmarc-report');
    expect(row).toHaveTextContent('invoice.xml');
    expect(row).toHaveTextContent(
      'Could not be imported: This is not a DMARC aggregate report: no <feedback> element.',
    );
    expect(row).toHaveTextContent('Failed');
    expect(row).toHaveTextContent('Uploaded Mar 2, 2025');
    expect(failed.getByRole('button', { name: 'Delete the failed import invoice.xml' })).toBeInTheDocument();
    expect(failed.queryByRole('combobox', { name: 'Filter by sender' })).not.toBeInTheDocument();
    // Once on the page, whatever the number of domains, and never inside a domain's panel.
    expect(screen.getAllByRole('region', { name: 'Files that could not be imported' })).toHaveLength(1);
    expect(panel.queryByText('invoice.xml')).not.toBeInTheDocument();
  });

  it('pages through the reports', async () => {
    const fetchMock = stubDmarc({
      reports: (url) => {
        if (url.searchParams.get('status') === 'failed') return jsonResponse(reportList([]));
        const page = Number(url.searchParams.get('page'));
        return jsonResponse(reportList([makeReport({ id: page, orgName: `Reporter on page ${page}` })], page, 25));
      },
    });
    const { panel, user } = await openDmarcPanel();
    const list = domainReports(panel);
    expect(await list.findByText('Reporter on page 1')).toBeInTheDocument();
    expect(list.getByText('Page 1 of 3')).toBeInTheDocument();
    expect(list.getByRole('button', { name: 'Previous' })).toBeDisabled();
    await user.click(list.getByRole('button', { name: 'Next' }));
    expect(await list.findByText('Reporter on page 2')).toBeInTheDocument();
    expect(list.getByText('Page 2 of 3')).toBeInTheDocument();
    expect(urlsOf(fetchMock, '/api/dmarc/reports').some((url) => url.searchParams.get('page') === '2')).toBe(true);
  });

  it('opens a report with its records: source IP, count, disposition, aligned results, header from and raw results', async () => {
    stubDmarc({}, { 'GET /api/dmarc/reports/1': () => jsonResponse(makeReportDetail({ recordCount: 800 })) });
    const { panel, user } = await openDmarcPanel();
    await user.click(await panel.findByRole('button', { name: 'Open the report from google.com for Mar 1, 2025' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Report from google.com' }));
    const records = await dialog.findAllByTestId('dmarc-record');
    expect(records).toHaveLength(2);
    expect(records[1]).toHaveTextContent('203.0.113.9');
    expect(records[1]).toHaveTextContent('50');
    expect(records[1]).toHaveTextContent('quarantine');
    expect(within(records[1]).getAllByText('fail')).toHaveLength(2);
    expect(records[1]).toHaveTextContent('example.com');
    expect(records[1]).toHaveTextContent('spf spoof.example.net (mfrom) softfail');
    expect(records[0]).toHaveTextContent('dkim example.com (google) pass; spf example.com (mfrom) pass');
    expect(dialog.getByText('p=none; adkim=r; aspf=r; pct=100')).toBeInTheDocument();
    expect(dialog.getByText('The 2 busiest of 800 records.')).toBeInTheDocument();
  });

  it('RFC 9990: shows the schema and version, generator, discovery method, np and testing, the pass disposition, selectors and human results', async () => {
    const report = makeReport({
      schema: 'rfc9990',
      version: '1.0',
      generator: 'Receiver DMARC Reporter 4.2',
      policyPublished: {
        p: 'reject',
        sp: null,
        np: 'reject',
        adkim: null,
        aspf: null,
        pct: null,
        fo: null,
        testing: 'n',
        discoveryMethod: 'treewalk',
      },
    });
    const detail = makeReportDetail({
      ...report,
      records: [
        {
          sourceIp: '198.51.100.20',
          count: 40,
          disposition: 'pass',
          dkimResult: 'pass',
          spfResult: 'fail',
          headerFrom: 'example.com',
          envelopeFrom: 'bounce.example.com',
          dkimAuth: [
            { domain: 'example.com', selector: 's2025', result: 'pass', humanResult: null },
            { domain: 'esp.example', selector: null, result: 'fail', humanResult: 'body hash did not verify' },
          ],
          spfAuth: [{ domain: 'bounce.example.com', scope: 'mfrom', result: 'softfail', humanResult: null }],
        },
      ],
    });
    stubDmarc(
      { reports: () => jsonResponse(reportList([report])) },
      { 'GET /api/dmarc/reports/1': () => jsonResponse(detail) },
    );
    const { panel, user } = await openDmarcPanel();
    await user.click(await panel.findByRole('button', { name: 'Open the report from google.com for Mar 1, 2025' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Report from google.com' }));
    const [record] = await dialog.findAllByTestId('dmarc-record');
    expect(dialog.getByText('RFC 9990 (DMARCbis), version 1.0')).toBeInTheDocument();
    expect(dialog.getByText('Receiver DMARC Reporter 4.2')).toBeInTheDocument();
    expect(dialog.getByText('DNS tree walk (RFC 9989)')).toBeInTheDocument();
    expect(dialog.getByText('p=reject; np=reject; testing=n')).toBeInTheDocument();
    expect(within(record).getByText('pass', { selector: 'td' })).toBeInTheDocument();
    expect(record).toHaveTextContent(
      'dkim example.com (s2025) pass; dkim esp.example (no selector) fail: "body hash did not verify"; spf bounce.example.com (mfrom) softfail',
    );
    expect(dialog.getByText(/pass \(delivered: it passed DMARC under an enforced policy\)/)).toBeInTheDocument();
  });

  it('shows an error with Try again when a report cannot be loaded', async () => {
    stubDmarc({}, { 'GET /api/dmarc/reports/1': () => errorResponse(404, 'not_found', 'No such report') });
    const { panel, user } = await openDmarcPanel();
    await user.click(await panel.findByRole('button', { name: /Open the report from google.com/ }));
    const dialog = within(await screen.findByRole('dialog'));
    expect(await dialog.findByRole('alert')).toHaveTextContent('No such report');
    expect(dialog.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });
});

describe('DMARC panel: delete a report', () => {
  it('asks for confirmation, deletes, toasts and refreshes the list and the analytics', async () => {
    let reports: DmarcReport[] = [makeReport(), makeReport({ id: 2, orgName: 'Yahoo' })];
    const fetchMock = stubDmarc(
      { reports: (url) => jsonResponse(reportList(url.searchParams.get('status') === 'failed' ? [] : reports)) },
      {
        'DELETE /api/dmarc/reports/1': () => {
          reports = reports.filter((report) => report.id !== 1);
          return new Response(null, { status: 204 });
        },
      },
    );
    const { panel, user } = await openDmarcPanel();
    const list = domainReports(panel);
    await list.findByText('Yahoo');
    const analyticsCalls = urlsOf(fetchMock, '/api/dmarc/analytics').length;

    await user.click(list.getByRole('button', { name: 'Delete the report from google.com for Mar 1, 2025' }));
    const dialog = within(await screen.findByRole('alertdialog'));
    expect(dialog.getByText(/Delete the report from google.com for Mar 1, 2025\?/)).toBeInTheDocument();
    await user.click(dialog.getByRole('button', { name: 'Delete' }));

    expect(await screen.findByText('Report deleted')).toBeInTheDocument();
    await waitFor(() => expect(list.getAllByTestId('dmarc-report')).toHaveLength(1));
    expect(list.getByTestId('dmarc-report')).toHaveTextContent('Yahoo');
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(urlsOf(fetchMock, '/api/dmarc/analytics').length).toBeGreaterThan(analyticsCalls);
  });

  it('deleting the only report of the last page goes back to the last page that has reports', async () => {
    let reports: DmarcReport[] = Array.from({ length: 11 }, (_, i) =>
      makeReport({ id: i + 1, orgName: `Reporter ${i + 1}` }),
    );
    const fetchMock = stubDmarc(
      {
        reports: (url) => {
          if (url.searchParams.get('status') === 'failed') return jsonResponse(reportList([]));
          const page = Number(url.searchParams.get('page'));
          return jsonResponse(reportList(reports.slice((page - 1) * 10, page * 10), page, reports.length));
        },
      },
      {
        'DELETE /api/dmarc/reports/11': () => {
          reports = reports.filter((report) => report.id !== 11);
          return new Response(null, { status: 204 });
        },
      },
    );
    const { panel, user } = await openDmarcPanel();
    const list = domainReports(panel);
    await list.findByText('Page 1 of 2');
    await user.click(list.getByRole('button', { name: 'Next' }));
    expect(await list.findByText('Reporter 11')).toBeInTheDocument();

    await user.click(list.getByRole('button', { name: /^Delete the report from Reporter 11/ }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete' }));

    expect(await screen.findByText('Report deleted')).toBeInTheDocument();
    await waitFor(() => expect(list.getAllByTestId('dmarc-report')).toHaveLength(10));
    expect(list.getByText('Reporter 1')).toBeInTheDocument();
    // One page left: no pager, and the list's page 1 was asked again after the delete (the panel and the
    // line about reports kept apart ask page 1 of a sender's reports: those are not the list's).
    expect(list.queryByRole('navigation', { name: 'Report pages' })).not.toBeInTheDocument();
    const calls = fetchMock.mock.calls.map(([input, init]) => ({
      method: init?.method ?? 'GET',
      url: new URL(String(input), 'http://localhost'),
    }));
    const deleted = calls.findIndex((call) => call.method === 'DELETE');
    const askedAfter = calls
      .slice(deleted)
      .filter(
        (call) =>
          call.url.pathname === '/api/dmarc/reports' &&
          call.url.searchParams.get('domain') === 'example.com' &&
          !call.url.searchParams.has('sender'),
      );
    expect(askedAfter.map((call) => call.url.searchParams.get('page'))).toContain('1');
  });

  it('cancelling deletes nothing', async () => {
    const fetchMock = stubDmarc();
    const { panel, user } = await openDmarcPanel();
    await user.click(await panel.findByRole('button', { name: /Delete the report from google.com/ }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'DELETE')).toBe(false);
    expect(panel.getAllByTestId('dmarc-report')).toHaveLength(1);
  });

  it('toasts the server message when the delete is refused, and keeps the report', async () => {
    stubDmarc(
      {},
      { 'DELETE /api/dmarc/reports/1': () => errorResponse(404, 'not_found', 'This report no longer exists') },
    );
    const { panel, user } = await openDmarcPanel();
    await user.click(await panel.findByRole('button', { name: /Delete the report from google.com/ }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Delete Failed')).toBeInTheDocument();
    expect(screen.getByText('This report no longer exists')).toBeInTheDocument();
    expect(panel.getAllByTestId('dmarc-report')).toHaveLength(1);
  });
});
