import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { jsonResponse, makeDomain, preloadSignedInFrame, renderApp } from '../../../test/test-utils';
import { makeBimiCheck, makeChecks, makeDetail, stubDomains } from '../test/fixtures';
import { BimiSection } from './bimi-section';

beforeAll(async () => {
  await Promise.all([import('../domains-page'), preloadSignedInFrame()]);
});

describe('BIMI box', () => {
  it('shows the logo checked and the mark certificate in the DNS check details', async () => {
    stubDomains([makeDomain()], {
      'GET /api/domains/1': () => jsonResponse(makeDetail({ checks: makeChecks({ bimi: makeBimiCheck() }) })),
    });
    renderApp('/domains');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Show DNS check details' }));
    const bimi = within(await screen.findByTestId('check-bimi'));
    expect(bimi.getByTestId('bimi-logo')).toHaveTextContent(
      'Logo: https://brand.example.com/bimi/logo.svg (1.5 KB), SVG Tiny PS',
    );
    const certificate = within(bimi.getByRole('group', { name: 'Mark certificate' }));
    expect(certificate.getByText('VMC (Verified Mark Certificate)')).toBeInTheDocument();
    expect(certificate.getByText('Example Brand, Inc.')).toBeInTheDocument();
    expect(certificate.getByText('DigiCert, Inc.')).toBeInTheDocument();
    expect(certificate.getByText('Jan 10, 2025 to Jan 9, 2026')).toBeInTheDocument();
    expect(certificate.getByText('example.com')).toBeInTheDocument();
    expect(certificate.getByText('the logo at l= is the one it carries')).toBeInTheDocument();
  });

  it('says when the logo is not SVG Tiny PS, a CMC whose logo differs, and nothing of either when the server sent none', () => {
    const { unmount } = render(
      <BimiSection
        bimi={makeBimiCheck({
          status: 'invalid',
          logo: { url: 'https://brand.example.com/bimi/logo.svg', bytes: 40_000, valid: false },
          certificate: { ...makeBimiCheck().certificate!, type: 'CMC', logoMatches: false },
        })}
      />,
    );
    expect(screen.getByTestId('bimi-logo')).toHaveTextContent(
      'Logo: https://brand.example.com/bimi/logo.svg (39.1 KB), not SVG Tiny PS',
    );
    expect(screen.getByText('CMC (Common Mark Certificate)')).toBeInTheDocument();
    expect(screen.getByText('the logo at l= is not the one it carries')).toBeInTheDocument();
    unmount();

    // Checks stored before the logo and certificate were checked have neither.
    render(<BimiSection bimi={{ status: 'valid', record: 'v=BIMI1; l=; a=;', findings: [] }} />);
    expect(screen.getByTestId('record-text')).toHaveTextContent('v=BIMI1; l=; a=;');
    expect(screen.queryByTestId('bimi-logo')).not.toBeInTheDocument();
    expect(screen.queryByRole('group', { name: 'Mark certificate' })).not.toBeInTheDocument();
  });
});
