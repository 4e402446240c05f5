import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { COMMON_DKIM_SELECTORS, type DomainChecks } from '@contracts/domains';
import { formatDateTime } from '../../../lib/format';
import { makeDkimSelector } from '../test/fixtures';
import { DkimSection } from './dkim-section';

const ED25519_RECORD = 'v=DKIM1; k=ed25519; t=y; p=11qYAYKxCrfVS/7TyWQHOg7hcvPapiMlrwIaaPcHURo=';
const BRISBANE = makeDkimSelector({
  selector: 'brisbane',
  record: ED25519_RECORD,
  keyType: 'ed25519',
  keyBits: 256,
});
const TESTING_NOTE = {
  severity: 'info' as const,
  message:
    'The key at brisbane._domainkey.example.com is in testing mode (t=y): receivers may treat mail signed with it as unsigned (RFC 6376 section 3.6.1).',
  fix: 'Remove t=y once your signatures verify.',
};

describe('DkimSection', () => {
  it('names the key type as its RFC does (RSA, Ed25519) with its size', () => {
    const dkim: DomainChecks['dkim'] = {
      status: 'valid',
      record: ED25519_RECORD,
      findings: [],
      selectors: [BRISBANE, makeDkimSelector()],
    };
    render(<DkimSection dkim={dkim} />);
    const [brisbane, google] = screen.getAllByTestId('dkim-selector');
    expect(within(brisbane).getByText('Key: Ed25519, 256 bits')).toBeInTheDocument();
    expect(within(google).getByText('Key: RSA, 2048 bits')).toBeInTheDocument();
  });

  it('says a selector’s findings once, beside its selector, and the check’s own findings below', () => {
    const dkim: DomainChecks['dkim'] = {
      status: 'valid',
      record: ED25519_RECORD,
      // The check repeats each selector's findings (for webhooks and the API), then says its own.
      findings: [TESTING_NOTE, { severity: 'info', message: 'Keys found at: brisbane.', fix: null }],
      selectors: [{ ...BRISBANE, findings: [TESTING_NOTE] }],
    };
    render(<DkimSection dkim={dkim} />);
    expect(screen.getAllByText(TESTING_NOTE.message)).toHaveLength(1);
    expect(within(screen.getByTestId('dkim-selector')).getByText(TESTING_NOTE.message)).toBeInTheDocument();
    expect(screen.getByText('Keys found at: brisbane.')).toBeInTheDocument();
  });

  it('marks the selectors whose DNS lookup failed among the selectors tried', () => {
    const dkim: DomainChecks['dkim'] = {
      status: 'missing',
      record: null,
      findings: [
        {
          severity: 'warning',
          message: '1 common selector could not be checked (selector1): the DNS lookup failed (ESERVFAIL).',
          fix: 'This is usually temporary, and we check again every hour. If it lasts, ask your DNS host why this name does not answer.',
        },
      ],
      selectors: [],
      triedSelectors: COMMON_DKIM_SELECTORS,
      uncheckedSelectors: ['selector1'],
    };
    render(<DkimSection dkim={dkim} />);
    const items = within(screen.getByRole('list', { name: 'DKIM selectors tried' })).getAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual(
      COMMON_DKIM_SELECTORS.map((s) => (s === 'selector1' ? 'selector1 (no answer)' : s)),
    );
  });

  it('says a key kept from an earlier check is not this check’s answer, and when it was found', () => {
    const foundAt = '2026-11-28T09:00:00.000Z';
    const dkim: DomainChecks['dkim'] = {
      status: 'valid',
      record: ED25519_RECORD,
      findings: [],
      selectors: [{ ...BRISBANE, lastFoundAt: foundAt }, makeDkimSelector()],
      uncheckedSelectors: ['brisbane'],
    };
    render(<DkimSection dkim={dkim} />);
    const [brisbane, google] = screen.getAllByTestId('dkim-selector');
    expect(brisbane).toHaveTextContent(`No answer at this check: the key as found on ${formatDateTime(foundAt)}.`);
    expect(google).not.toHaveTextContent('No answer at this check');
  });
});
