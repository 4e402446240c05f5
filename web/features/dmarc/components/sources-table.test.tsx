import { render, screen, within } from '@testing-library/react';
import type { DmarcSource } from '@contracts/dmarc';
import { describe, expect, it } from 'vitest';
import { SourcesTable } from './sources-table';

// Sources as GET /api/dmarc/analytics answers them (server/dmarc/source-services.test.ts builds the same two).
const google: DmarcSource = {
  ips: ['209.85.221.53'],
  reverseDns: null,
  organisation: null,
  provider: 'Google Workspace',
  providerMatchedBy: 'published-network',
  authDomains: [],
  count: 40,
  spfAligned: 40,
  dkimAligned: 40,
  failed: 0,
  dispositions: { none: 40 },
  coverage: {
    spf: 'covered',
    dkim: 'covered',
    spfRecord: { include: '_spf.google.com', includedBy: ['covered-brand.com'], notIncludedBy: [] },
  },
};
const ses: DmarcSource = {
  ips: ['54.240.8.40'],
  reverseDns: 'a8-40.smtp-out.amazonses.com',
  organisation: 'amazonses.com',
  provider: 'Amazon SES',
  providerMatchedBy: 'reverse-dns',
  authDomains: ['amazonses.com'],
  count: 25,
  spfAligned: 0,
  dkimAligned: 5,
  failed: 20,
  dispositions: { none: 25 },
  coverage: {
    spf: 'not covered',
    dkim: 'partly',
    spfRecord: { include: 'amazonses.com', includedBy: [], notIncludedBy: ['covered-brand.com'] },
    spfFix:
      'its return-path (MAIL FROM) is eu-west-1.amazonses.com, not under covered-brand.com: set a custom return-path (bounce domain) under covered-brand.com at Amazon SES, whose SPF includes amazonses.com',
    dkimFix:
      'it signs with d=amazonses.com, not covered-brand.com: set up DKIM for covered-brand.com at Amazon SES and publish its public key in DNS',
  },
};
const unknown: DmarcSource = {
  ips: ['203.0.113.9'],
  reverseDns: null,
  organisation: null,
  provider: null,
  authDomains: [],
  count: 3,
  spfAligned: 0,
  dkimAligned: 0,
  failed: 3,
  dispositions: { quarantine: 3 },
  coverage: { spf: 'not covered', dkim: 'not covered' },
};

describe('the sending sources table', () => {
  it('names each service with how it was recognised, and says in words whether SPF and DKIM cover it', () => {
    render(<SourcesTable sources={[google, ses, unknown]} />);
    const [first, second, third] = screen.getAllByTestId('dmarc-source').map((row) => within(row));

    expect(first.getByText('Google Workspace')).toBeInTheDocument();
    expect(
      first.getByText('recognised by a network Google Workspace publishes in its SPF; no reverse DNS'),
    ).toBeInTheDocument();
    const googleCoverage = first.getByTestId('source-coverage');
    expect(googleCoverage).toHaveTextContent('SPF covers it; DKIM covers it.');
    expect(googleCoverage).toHaveTextContent('The SPF record of covered-brand.com includes _spf.google.com.');

    expect(second.getByText('Amazon SES')).toBeInTheDocument();
    expect(second.getByText('recognised by its reverse DNS, a8-40.smtp-out.amazonses.com')).toBeInTheDocument();
    const sesCoverage = second.getByTestId('source-coverage');
    expect(sesCoverage).toHaveTextContent('SPF does not cover it; DKIM covers part of its mail.');
    expect(sesCoverage).toHaveTextContent('The SPF record of covered-brand.com does not include amazonses.com.');
    expect(sesCoverage).toHaveTextContent(`To fix SPF: ${ses.coverage!.spfFix}.`);
    expect(sesCoverage).toHaveTextContent(`To fix DKIM: ${ses.coverage!.dkimFix}.`);

    // No service, no check of a record to compare with, and no fix: mail nothing authenticates is a threat, not a sender.
    const unknownCoverage = third.getByTestId('source-coverage');
    expect(unknownCoverage).toHaveTextContent('SPF does not cover it; DKIM does not cover it.');
    expect(unknownCoverage).toHaveTextContent('From the reports only.');
    expect(unknownCoverage).not.toHaveTextContent('To fix');
  });
});
