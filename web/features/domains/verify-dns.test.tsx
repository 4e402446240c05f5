import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { COMMON_DKIM_SELECTORS, type DomainChecks, type DomainDetail } from '@contracts/domains';
import { errorResponse, jsonResponse, makeDomain, preloadSignedInFrame, renderApp } from '../../test/test-utils';
import { makeChecks, makeDetail, stubDomains } from './test/fixtures';
import { verifyNotice } from './verify-result';

beforeAll(async () => {
  await Promise.all([import('./domains-page'), preloadSignedInFrame()]);
});

const SERVFAIL_MESSAGE = 'DNS lookups for flaky-dns.io failed (ESERVFAIL); nothing was changed. Try again in a minute.';
const NO_KEY = `We tried 13 common selectors (${COMMON_DKIM_SELECTORS.join(', ')}) and found no DKIM key.`;
const FIX =
  'Find the selector in a message you sent (the s= tag of its DKIM-Signature header) and add it under Edit Domain. If your messages carry no DKIM-Signature, turn on DKIM signing at your email provider first.';
const LONG_KEY = `v=DKIM1; k=rsa; p=MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA${'x'.repeat(340)}IDAQAB`;

const noDkim: DomainChecks['dkim'] = {
  status: 'missing',
  record: null,
  findings: [{ severity: 'error', message: NO_KEY, fix: FIX }],
  selectors: [],
  triedSelectors: COMMON_DKIM_SELECTORS,
};

/** A domain whose Verify DNS answers `detail` (and whose list then shows it). */
function stubVerify(detail: DomainDetail) {
  let list = [
    makeDomain({
      domain: detail.domain,
      status: 'pending',
      isVerified: false,
      spfStatus: null,
      dkimStatus: null,
      dmarcStatus: null,
    }),
  ];
  return stubDomains(() => list, {
    'POST /api/domains/1/verify': () => {
      list = [detail];
      return jsonResponse(detail);
    },
    'GET /api/domains/1': () => jsonResponse(detail),
  });
}

async function verify(domain = 'example.com') {
  renderApp('/domains');
  const card = await screen.findByTestId('domain-card');
  expect(card).toHaveAttribute('data-domain', domain);
  const user = userEvent.setup();
  await user.click(within(card).getByRole('button', { name: 'Verify DNS' }));
  return { card: within(card), user };
}

describe('Verify DNS: when the check cannot run', () => {
  it('shows the server’s own sentence, not a generic one', async () => {
    stubDomains([makeDomain({ domain: 'flaky-dns.io' })], {
      'POST /api/domains/1/verify': () => errorResponse(503, 'unavailable', SERVFAIL_MESSAGE),
    });
    await verify('flaky-dns.io');
    expect(await screen.findByText('Verification Failed')).toBeInTheDocument();
    expect(screen.getByText(SERVFAIL_MESSAGE)).toBeInTheDocument();
    expect(screen.queryByText('Failed to verify domain DNS records')).not.toBeInTheDocument();
  });

  it('falls back to the spec’s words when the answer carries no message', async () => {
    stubDomains([makeDomain()], { 'POST /api/domains/1/verify': () => new Response('', { status: 502 }) });
    await verify();
    expect(await screen.findByText('Verification Failed')).toBeInTheDocument();
    expect(screen.getByText('Failed to verify domain DNS records')).toBeInTheDocument();
  });
});

describe('Verify DNS: the title says the result', () => {
  it('a Critical result is titled by its problems, not "DNS Verification Complete", and opens the details', async () => {
    const detail = makeDetail({
      status: 'error',
      spfStatus: 'missing',
      dkimStatus: 'missing',
      dmarcStatus: 'missing',
      spfRecord: null,
      dmarcRecord: null,
      checks: makeChecks({ dkim: noDkim }),
    });
    stubVerify(detail);
    const { card } = await verify();
    expect(await screen.findByText('Critical: no SPF record, no DKIM key found, no DMARC record')).toBeInTheDocument();
    expect(
      screen.getByText('example.com: Critical. The DNS check details below say how to fix them.'),
    ).toBeInTheDocument();
    expect(screen.queryByText('DNS Verification Complete')).not.toBeInTheDocument();
    await waitFor(() => expect(card.getByTestId('domain-status')).toHaveTextContent('Critical'));
    // The details open by themselves, with the fixes.
    expect(card.getByRole('button', { name: 'Hide DNS check details' })).toHaveAttribute('aria-expanded', 'true');
    expect(await card.findByTestId('check-dkim')).toBeInTheDocument();
  });

  it('an Issues result names the problem', async () => {
    stubVerify(makeDetail({ status: 'warning', dkimStatus: 'missing', checks: makeChecks({ dkim: noDkim }) }));
    await verify();
    expect(await screen.findByText('Issues: no DKIM key found')).toBeInTheDocument();
    expect(screen.getByText('example.com: Issues. The DNS check details below say how to fix it.')).toBeInTheDocument();
  });

  it('a healthy result keeps "DNS Verification Complete" and leaves the details closed', async () => {
    stubVerify(makeDetail({ status: 'healthy' }));
    const { card } = await verify();
    expect(await screen.findByText('DNS Verification Complete')).toBeInTheDocument();
    expect(screen.getByText('example.com: Verified')).toBeInTheDocument();
    expect(card.getByRole('button', { name: 'Show DNS check details' })).toHaveAttribute('aria-expanded', 'false');
  });

  it('words every status (unit)', () => {
    expect(verifyNotice(makeDetail({ status: 'healthy', isVerified: false }))).toEqual({
      title: 'DNS Verification Complete',
      description:
        'example.com: Verified. Ownership is not verified yet: publish the TXT record _inboxpulse.example.com.',
      variant: 'default',
    });
    const unresolved = verifyNotice(
      makeDetail({ status: 'error', spfStatus: 'invalid', checks: makeChecks({ resolves: false }) }),
    );
    expect(unresolved).toMatchObject({
      title: 'Critical: the domain does not resolve, SPF invalid',
      variant: 'destructive',
    });
  });
});

describe('Verify DNS: DKIM', () => {
  it('says which selectors were tried and how to add the right one when none has a key', async () => {
    stubVerify(makeDetail({ status: 'warning', dkimStatus: 'missing', checks: makeChecks({ dkim: noDkim }) }));
    const { card } = await verify();
    const dkim = within(await card.findByTestId('check-dkim'));
    expect(dkim.getByText(NO_KEY)).toBeInTheDocument();
    expect(dkim.getByText(FIX)).toBeInTheDocument();
    expect(dkim.getByText('Selectors tried (13)')).toBeInTheDocument();
    expect(
      within(dkim.getByRole('list', { name: 'DKIM selectors tried' }))
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(COMMON_DKIM_SELECTORS);
    expect(dkim.queryByText(/No DKIM selectors were checked/)).not.toBeInTheDocument();
  });

  it('says nothing about tried selectors for results stored before they were recorded', async () => {
    const { triedSelectors: _dropped, ...stored } = noDkim;
    stubVerify(makeDetail({ status: 'warning', dkimStatus: 'missing', checks: makeChecks({ dkim: stored }) }));
    const { card } = await verify();
    const dkim = within(await card.findByTestId('check-dkim'));
    expect(dkim.getByText(NO_KEY)).toBeInTheDocument();
    expect(dkim.queryByText(/Selectors tried/)).not.toBeInTheDocument();
  });

  it('cuts a long key to one line, whole in its tooltip, with a button that copies it; records wrap with their own button', async () => {
    const dkim: DomainChecks['dkim'] = {
      status: 'valid',
      record: LONG_KEY,
      findings: [],
      selectors: [
        { selector: 'google', status: 'valid', record: LONG_KEY, keyType: 'rsa', keyBits: 2048, findings: [] },
      ],
      triedSelectors: COMMON_DKIM_SELECTORS,
    };
    stubVerify(makeDetail({ status: 'warning', spfStatus: 'invalid', checks: makeChecks({ dkim }) }));
    const { card, user } = await verify();
    const selector = within((await card.findAllByTestId('dkim-selector'))[0]);
    const key = selector.getByText(LONG_KEY);
    expect(key).toHaveClass('truncate');
    expect(key).toHaveAttribute('title', LONG_KEY);
    // Shown once, with its selector: not again as the check's record.
    expect(within(card.getByTestId('check-dkim')).getAllByText(LONG_KEY)).toHaveLength(1);
    expect(within(card.getByTestId('check-spf')).getByTestId('record-text')).toHaveClass('break-all');
    await user.click(selector.getByRole('button', { name: 'Copy DKIM record google._domainkey' }));
    expect(await navigator.clipboard.readText()).toBe(LONG_KEY);
    await user.click(within(card.getByTestId('check-spf')).getByRole('button', { name: 'Copy SPF record' }));
    expect(await navigator.clipboard.readText()).toBe(
      'v=spf1 include:_spf.google.com include:spf.protection.outlook.com ~all',
    );
  });
});
