import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Domain } from '@contracts/domains';
import {
  bodyOf,
  errorResponse,
  jsonResponse,
  makeDomain,
  preloadSignedInFrame,
  renderApp,
  stubResizeObserver,
} from '../../../test/test-utils';
import { makeFailedImport, reportList, stubDmarc } from '../test/fixtures';

beforeAll(async () => {
  await Promise.all([preloadSignedInFrame(), import('../../../app/domain-management-page')]);
});

beforeEach(stubResizeObserver);

const reportDomains = {
  items: [
    { domain: 'example.com', reports: 12, messages: 4000, lastReportAt: '2025-03-02T23:59:59.000Z' },
    { domain: 'example.de', reports: 3, messages: 1, lastReportAt: '2025-03-01T23:59:59.000Z' },
  ],
};

async function openDomains() {
  renderApp('/domains');
  await screen.findAllByTestId('domain-card');
  return userEvent.setup();
}

describe('DMARC report imports (account level, below the domains)', () => {
  it('offers to add a domain whose reports were imported but which is not one of yours, through POST /api/domains', async () => {
    let domains: Domain[] = [makeDomain()];
    const fetchMock = stubDmarc(
      { reportDomains: () => jsonResponse(reportDomains) },
      {
        'GET /api/domains': () => jsonResponse(domains),
        'POST /api/domains': () => {
          const added = makeDomain({ id: 2, domain: 'example.de', status: 'pending', isVerified: false });
          domains = [...domains, added];
          return jsonResponse(added);
        },
      },
    );
    const user = await openDomains();
    const imports = within(await screen.findByTestId('dmarc-imports'));
    expect(imports.getByRole('heading', { name: 'DMARC report imports' })).toBeInTheDocument();
    const offered = await imports.findAllByTestId('report-domain');
    // example.com is the user's: its card shows its reports. example.de is offered.
    expect(offered.map((item) => item.getAttribute('data-domain'))).toEqual(['example.de']);
    expect(offered[0]).toHaveTextContent('3 reports, 1 message, latest Mar 1, 2025');

    await user.click(imports.getByRole('button', { name: 'Add example.de' }));
    expect(await screen.findByText('Domain Added')).toBeInTheDocument();
    expect(bodyOf(fetchMock, 'POST /api/domains')).toEqual({ domain: 'example.de' });
    // Its card appears, and the offer goes: nothing is left to show, so the section hides.
    await waitFor(() =>
      expect(screen.getAllByTestId('domain-card').map((card) => card.getAttribute('data-domain'))).toEqual([
        'example.com',
        'example.de',
      ]),
    );
    await waitFor(() => expect(screen.getByTestId('dmarc-imports')).not.toBeVisible());
  });

  it('says why a domain could not be added', async () => {
    stubDmarc(
      { reportDomains: () => jsonResponse(reportDomains) },
      { 'POST /api/domains': () => errorResponse(403, 'forbidden', 'The free plan includes 5 domains.') },
    );
    const user = await openDomains();
    const imports = within(await screen.findByTestId('dmarc-imports'));
    await user.click(await imports.findByRole('button', { name: 'Add example.de' }));
    expect(await screen.findByText('Failed to add domain')).toBeInTheDocument();
    expect(screen.getByText('The free plan includes 5 domains.')).toBeInTheDocument();
    expect(imports.getByRole('button', { name: 'Add example.de' })).toBeEnabled();
  });

  it('lists failed imports once for the account, whatever the number of domains', async () => {
    stubDmarc({
      domains: [
        makeDomain(),
        makeDomain({ id: 2, domain: 'news.example.org' }),
        makeDomain({ id: 3, domain: 'shop.example.net' }),
      ],
      reports: (url) =>
        jsonResponse(reportList(url.searchParams.get('status') === 'failed' ? [makeFailedImport()] : [])),
    });
    await openDomains();
    const imports = within(await screen.findByTestId('dmarc-imports'));
    const failed = within(await imports.findByRole('region', { name: 'Files that could not be imported' }));
    expect(failed.getByTestId('dmarc-report')).toHaveTextContent('invoice.xml');
    expect(imports.queryAllByTestId('report-domain')).toEqual([]);
    expect(screen.getAllByText('invoice.xml')).toHaveLength(1);
  });

  it('stays out of sight when every report belongs to one of your domains and no file failed', async () => {
    stubDmarc({ reportDomains: () => jsonResponse({ items: [reportDomains.items[0]] }) });
    await openDomains();
    const imports = await screen.findByTestId('dmarc-imports', {}, { timeout: 5000 });
    expect(imports).not.toBeVisible();
    expect(screen.queryByRole('heading', { name: 'DMARC report imports' })).not.toBeInTheDocument();
  });
});
