import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { errorResponse, jsonResponse, makeDomain } from '../../../test/test-utils';
import {
  makeFailedImport,
  makeReport,
  openDmarcPanel,
  stubDmarc,
  setUpDmarcPanelTests,
  uploadAnswer,
  urlsOf,
} from '../test/fixtures';

setUpDmarcPanelTests();

const reportFile = () =>
  new File(['<feedback></feedback>'], 'google.com!example.com!1740787200!1740873599.xml', { type: 'text/xml' });

async function choose(file: File) {
  const opened = await openDmarcPanel();
  await opened.panel.findByTestId('dmarc-figures');
  await opened.user.upload(opened.panel.getByLabelText('DMARC report file'), file);
  return opened;
}

describe('DMARC panel: upload', () => {
  it('posts the raw file with its name, toasts the counts and refreshes the analytics and reports', async () => {
    const fetchMock = stubDmarc({}, { 'POST /api/dmarc/upload': () => jsonResponse(uploadAnswer()) });
    const file = reportFile();
    await choose(file);

    expect(await screen.findByText('DMARC report uploaded')).toBeInTheDocument();
    expect(screen.getByText('1 imported, 0 duplicates skipped, 0 failed.')).toBeInTheDocument();

    const call = fetchMock.mock.calls.find(([, init]) => init?.method === 'POST');
    expect(new URL(String(call?.[0]), 'http://localhost').searchParams.get('filename')).toBe(file.name);
    expect(call?.[1]?.body).toBe(file);
    expect(call?.[1]?.headers).toEqual({ 'Content-Type': 'application/octet-stream' });
    await waitFor(() => expect(urlsOf(fetchMock, '/api/dmarc/analytics').length).toBeGreaterThanOrEqual(2));
    // The domain's list and the failed imports are both asked again.
    await waitFor(() => expect(urlsOf(fetchMock, '/api/dmarc/reports').length).toBeGreaterThanOrEqual(4));
  });

  it('names each failed file with its error, and the duplicates, in the toast', async () => {
    stubDmarc(
      {},
      {
        'POST /api/dmarc/upload': () =>
          jsonResponse(
            uploadAnswer({
              imported: 1,
              duplicates: 2,
              failed: [
                {
                  fileName: 'reports.zip/invoice.xml',
                  error: 'This is not a DMARC aggregate report: no <feedback> element.',
                },
              ],
              reports: [makeReport(), makeFailedImport({ fileName: 'reports.zip/invoice.xml' })],
            }),
          ),
      },
    );
    await choose(new File(['PK'], 'reports.zip'));
    expect(await screen.findByText('Upload partly imported')).toBeInTheDocument();
    expect(screen.getByText('1 imported, 2 duplicates skipped, 1 failed.')).toBeInTheDocument();
    expect(screen.getByText('reports.zip/invoice.xml')).toBeInTheDocument();
    expect(screen.getByText(/This is not a DMARC aggregate report: no <feedback> element\./)).toBeInTheDocument();
  });

  it('says which other domains the file held reports for, and where to add those that are not yours', async () => {
    stubDmarc(
      { domains: [makeDomain(), makeDomain({ id: 2, domain: 'other.example.org' })] },
      {
        'POST /api/dmarc/upload': () =>
          jsonResponse(
            uploadAnswer({
              imported: 2,
              reports: [makeReport({ domain: 'other.example.org' }), makeReport({ id: 2, domain: 'example.de' })],
            }),
          ),
      },
    );
    await choose(reportFile());
    expect(await screen.findByText('Also imported reports for other.example.org.')).toBeInTheDocument();
    expect(
      screen.getByText(
        'Also imported reports for example.de, which is not one of your domains: add it under DMARC report imports below your domains to see the reports.',
      ),
    ).toBeInTheDocument();
  });

  it('toasts the server message when the upload is refused', async () => {
    stubDmarc(
      {},
      {
        'POST /api/dmarc/upload': () =>
          errorResponse(413, 'payload_too_large', 'The file is too large: uploads are limited to 10 MB.'),
      },
    );
    await choose(reportFile());
    expect(await screen.findByText('Upload failed')).toBeInTheDocument();
    expect(screen.getByText('The file is too large: uploads are limited to 10 MB.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Upload DMARC report' })).toBeEnabled();
  });
});
