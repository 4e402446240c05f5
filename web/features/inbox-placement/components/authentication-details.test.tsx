import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeReport } from '../test/fixtures';
import { AuthenticationDetails } from './authentication-details';

const authentication = makeReport().authentication!;

describe('AuthenticationDetails: DMARC', () => {
  it('shows strict alignment, testing mode and a record found above the From domain (RFC 9989 tree walk)', () => {
    render(
      <AuthenticationDetails
        authentication={{
          ...authentication,
          dmarc: {
            result: 'fail',
            domain: 'news.example.com',
            policy: 'quarantine',
            record: 'v=DMARC1; p=reject; adkim=s; t=y',
            spfAligned: false,
            dkimAligned: false,
            policyDomain: 'example.com',
            policySource: 'organizational-domain',
            organizationalDomain: 'example.com',
            adkim: 's',
            aspf: 'r',
            testing: true,
          },
        }}
      />,
    );
    const row = screen.getByText('news.example.com').parentElement!;
    expect(row).toHaveTextContent('policy quarantine (t=y: one level below the published policy)');
    expect(row).toHaveTextContent('SPF aligned: No · DKIM aligned: No (strict)');
    expect(row).toHaveTextContent('record found at _dmarc.example.com, the Organizational Domain');
  });

  it('shows a report analysed before these fields existed as it was', () => {
    render(<AuthenticationDetails authentication={authentication} />);
    const row = screen.getByText('policy none').parentElement!;
    expect(row).toHaveTextContent('SPF aligned: Yes · DKIM aligned: Yes');
    expect(row).not.toHaveTextContent('record found at');
  });
});
