import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeChecks, makeSpfCheck } from '../test/fixtures';
import { SpfSection } from './spf-section';

const rowsOf = (table: HTMLElement) =>
  within(table)
    .getAllByRole('row')
    .slice(1)
    .map((row) =>
      within(row)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    );

describe('SPF box', () => {
  it('shows each term’s lookups and void lookups, the IPv6 void count where it differs, and the notes', () => {
    render(<SpfSection spf={makeSpfCheck()} />);
    expect(screen.getByText('4 of 10 DNS lookups')).toHaveAttribute('data-tone', 'good');
    expect(screen.getByText('1 of 2 void lookups (IPv4 senders)')).toHaveAttribute('data-tone', 'good');
    expect(screen.getByText('3 of 2 void lookups (IPv6 senders)')).toHaveAttribute('data-tone', 'bad');

    expect(rowsOf(screen.getByRole('table', { name: 'Terms of the SPF record of example.com' }))).toEqual([
      ['include:_spf.mailer.example', '3', '1 (IPv6: 2)', ''],
      ['a:relay.example.com', '1', '0 (IPv6: 1)', ''],
      [
        'exists:%{i}._allow.%{d}',
        '1',
        '0',
        'Depends on the sender: the name is built from %{i} for each message; it counts one lookup.',
      ],
      ['~all', '0', '0', ''],
      ['include:_spf.retired.example', '0', '0', 'Never evaluated: it comes after "all" (RFC 7208 section 5.1).'],
    ]);
    expect(rowsOf(screen.getByRole('table', { name: 'Terms of the SPF record of _spf.mailer.example' }))[1]).toEqual([
      'a:out2.mailer.example',
      '1',
      '1',
      '',
    ]);
  });

  it('shows the result for each known sending IP and the envelope assumed', () => {
    render(<SpfSection spf={makeSpfCheck()} />);
    const senders = within(screen.getByRole('group', { name: 'Results for your sending IPs' }));
    expect(
      senders.getByText('Evaluated as mail from postmaster@example.com with HELO example.com.'),
    ).toBeInTheDocument();
    expect(rowsOf(senders.getByRole('table'))).toEqual([
      ['192.0.2.44', 'pass', 'Domain of postmaster@example.com designates 192.0.2.44 as permitted sender.'],
      [
        '203.0.113.66',
        'permerror',
        'Permanent error in processing during lookup of postmaster@example.com: Too many void DNS results.',
      ],
    ]);
    expect(senders.getByText('pass')).toHaveAttribute('data-tone', 'good');
    expect(senders.getByText('permerror')).toHaveAttribute('data-tone', 'bad');
  });

  it('shows a check stored before terms were counted as before: one void count, the tree without terms', () => {
    render(<SpfSection spf={makeChecks().spf} />);
    expect(screen.getByText('1 of 2 void lookups')).toBeInTheDocument();
    expect(screen.queryByText(/IPv6 senders/)).not.toBeInTheDocument();
    expect(screen.getByTestId('spf-tree')).toHaveTextContent('_spf.google.com');
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    expect(screen.queryByRole('group', { name: 'Results for your sending IPs' })).not.toBeInTheDocument();
  });
});
