import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { jsonResponse } from '../../../test/test-utils';
import {
  makeFailedImport,
  makeReport,
  makeReportDetail,
  openDmarcPanel,
  reportList,
  stubDmarc,
  setUpDmarcPanelTests,
} from '../test/fixtures';

setUpDmarcPanelTests();

// The server's words for parsedmarc's samples/aggregate/invalid_utf_8.xml (server/dmarc/fixtures.ts RECOVERED_FIXTURES).
const WARNING =
  'The file is not valid UTF-8 text (the first bad byte is on line 31): bad bytes were read as "\uFFFD", so names with them may not be as the reporter wrote them.';

describe('DMARC reports read with recoveries, and failed files kept as received', () => {
  it('marks a recovered report in the list and says what was recovered on its page', async () => {
    const recovered = makeReport({ warnings: [WARNING] });
    stubDmarc(
      {
        reports: (url) => jsonResponse(reportList(url.searchParams.get('status') === 'failed' ? [] : [recovered])),
      },
      { 'GET /api/dmarc/reports/1': () => jsonResponse(makeReportDetail(recovered)) },
    );
    const { panel, user } = await openDmarcPanel();
    const row = (await panel.findAllByTestId('dmarc-report'))[0];
    expect(within(row).getByTestId('recovered-report')).toHaveTextContent('Recovered');
    expect(row).toHaveTextContent(WARNING);
    await user.click(within(row).getByRole('button', { name: /^Open the report from google.com/ }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Report from google.com' }));
    expect(await dialog.findByRole('region', { name: 'Read with recoveries' })).toHaveTextContent(WARNING);
  });

  it('shows no recovery on a report read as written', async () => {
    stubDmarc({
      reports: (url) => jsonResponse(reportList(url.searchParams.get('status') === 'failed' ? [] : [makeReport()])),
    });
    const { panel } = await openDmarcPanel();
    await panel.findAllByTestId('dmarc-report');
    expect(panel.queryByTestId('recovered-report')).not.toBeInTheDocument();
  });

  it('offers the file of a failed import as it was received, and only when it was kept', async () => {
    stubDmarc({
      reports: (url) =>
        jsonResponse(
          reportList(
            url.searchParams.get('status') === 'failed'
              ? [makeFailedImport({ id: 7, rawKept: true }), makeFailedImport({ id: 8, fileName: 'failure.eml' })]
              : [],
          ),
        ),
    });
    await openDmarcPanel();
    const failed = within(await screen.findByRole('region', { name: 'Files that could not be imported' }));
    const link = await failed.findByRole('link', { name: 'Download invoice.xml as it was received' });
    expect(link).toHaveAttribute('href', '/api/dmarc/reports/7/raw');
    expect(link).toHaveAttribute('download');
    expect(failed.getAllByRole('link')).toHaveLength(1);
  });
});
