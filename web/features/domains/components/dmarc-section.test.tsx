import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { DomainChecks } from '@contracts/domains';
import { DmarcSection } from './dmarc-section';

const base: DomainChecks['dmarc'] = {
  status: 'valid',
  record: 'v=DMARC1; p=reject; sp=quarantine; np=reject; t=y; pct=50; ri=3600; rua=mailto:dmarc@example.com',
  findings: [],
  foundAt: '_dmarc.example.com',
  tags: {
    v: 'DMARC1',
    p: 'reject',
    sp: 'quarantine',
    np: 'reject',
    t: 'y',
    pct: '50',
    ri: '3600',
    rua: 'mailto:dmarc@example.com',
    rau: 'x',
  },
  externalReportDestinations: [],
};

const tagRow = (tag: string) =>
  screen.getAllByTestId('dmarc-tag').find((row) => within(row).queryByText(tag, { selector: 'dt' }))!;

describe('DmarcSection', () => {
  it('says where the record was found by the tree walk, which tag applies to this domain and why, and the Organizational Domain', () => {
    render(
      <DmarcSection
        dmarc={{
          ...base,
          discovery: {
            source: 'organizational-domain',
            organizationalDomain: 'example.com',
            queried: ['news.example.com', 'example.com', 'com'],
            policyTag: 'sp',
            requestedPolicy: 'quarantine',
            appliedPolicy: 'none',
            testing: true,
          },
        }}
      />,
    );
    expect(screen.getByText(/Found at/)).toHaveTextContent(
      'Found at _dmarc.example.com: the record of its Organizational Domain, found by the DNS tree walk (RFC 9989)',
    );
    const discovery = screen.getByLabelText('DMARC policy discovery');
    expect(within(discovery).getByTestId('dmarc-applied-policy')).toHaveTextContent('none');
    expect(
      within(discovery).getByText(
        'from sp=quarantine, the policy for subdomains, applied one level lower in testing mode (t=y)',
      ),
    ).toBeInTheDocument();
    expect(
      within(discovery).getByText('_dmarc.news.example.com → _dmarc.example.com → _dmarc.com'),
    ).toBeInTheDocument();
  });

  it('names the RFC 9989 tags, flags the tags RFC 9989 removed, and marks unknown tags as ignored', () => {
    render(<DmarcSection dmarc={base} />);
    expect(within(tagRow('np')).getByText('Policy for non-existent subdomains')).toBeInTheDocument();
    expect(within(tagRow('t')).getByText('Testing mode')).toBeInTheDocument();
    expect(within(tagRow('pct')).getByText('Removed in RFC 9989')).toBeInTheDocument();
    expect(within(tagRow('ri')).getByText('Removed in RFC 9989')).toBeInTheDocument();
    expect(within(tagRow('rau')).getByText('Not a DMARC tag: ignored')).toBeInTheDocument();
    expect(within(tagRow('p')).queryByText('Removed in RFC 9989')).toBeNull();
  });

  it('shows a check stored before discovery followed RFC 9989 as it was', () => {
    render(<DmarcSection dmarc={base} />);
    expect(screen.getByText(/Found at/)).toHaveTextContent(/^Found at _dmarc\.example\.com$/);
    expect(screen.queryByLabelText('DMARC policy discovery')).toBeNull();
  });

  it('says when receivers apply no DMARC processing at all', () => {
    render(
      <DmarcSection
        dmarc={{
          ...base,
          status: 'invalid',
          discovery: {
            source: 'author-domain',
            organizationalDomain: 'example.com',
            queried: ['example.com', 'com'],
            policyTag: 'p',
            requestedPolicy: null,
            appliedPolicy: null,
            testing: false,
          },
        }}
      />,
    );
    expect(screen.getByLabelText('DMARC policy discovery')).toHaveTextContent(
      'none: receivers apply no DMARC processing (no valid policy and no rua= address)',
    );
  });
});
