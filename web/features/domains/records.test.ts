import { describe, expect, it } from 'vitest';
import { dmarcRecord, relativeName, suggestedRecords } from './records';
import { parseSelectors } from './selectors';
import { formatDate } from '../../lib/format';
import { domainStatusLabel } from './status';

describe('suggested DNS records', () => {
  it('gives ownership, SPF (Google include), DKIM at default._domainkey and DMARC at _dmarc', () => {
    const records = suggestedRecords(
      'example.com',
      { name: '_inboxpulse.example.com', value: 'token' },
      'quarantine',
      'dmarc@in.inboxpulse.test',
    );
    expect(records.map((r) => [r.id, r.name, r.value])).toEqual([
      ['ownership', '_inboxpulse.example.com', 'token'],
      ['spf', '@', 'v=spf1 include:_spf.google.com ~all'],
      ['dkim', 'default._domainkey', 'v=DKIM1; k=rsa; p=YOUR_PUBLIC_KEY'],
      ['dmarc', '_dmarc', 'v=DMARC1; p=quarantine; rua=mailto:dmarc@in.inboxpulse.test'],
    ]);
    expect(records[0].altName).toEqual({ label: 'Host only', value: '_inboxpulse' });
  });

  it('writes the chosen DMARC policy and the report address the server gives, or no rua= without one', () => {
    expect(dmarcRecord('none', 'dmarc@in.inboxpulse.test')).toBe(
      'v=DMARC1; p=none; rua=mailto:dmarc@in.inboxpulse.test',
    );
    expect(dmarcRecord('reject', null)).toBe('v=DMARC1; p=reject');
  });

  it('makes names relative to the domain', () => {
    expect(relativeName('example.com', 'example.com')).toBe('@');
    expect(relativeName('_x.Example.com.', 'example.com')).toBe('_x');
    expect(relativeName('other.org', 'example.com')).toBe('other.org');
  });
});

describe('parseSelectors', () => {
  it('splits on commas, spaces and lines; lower-cases; drops repeats and blanks', () => {
    expect(parseSelectors(' Google,s1\n\ns2 , s1,, ')).toEqual(['google', 's1', 's2']);
    expect(parseSelectors('   ')).toEqual([]);
  });
});

describe('status and dates', () => {
  it('labels the four statuses, anything else Pending', () => {
    expect(['healthy', 'warning', 'error', 'pending', 'odd'].map(domainStatusLabel)).toEqual([
      'Verified',
      'Issues',
      'Critical',
      'Pending',
      'Pending',
    ]);
  });

  it('formats dates, N/A when missing, Invalid date when unreadable', () => {
    expect(formatDate('2025-01-15T12:00:00.000Z')).toBe('Jan 15, 2025');
    expect(formatDate(null)).toBe('N/A');
    expect(formatDate('nope')).toBe('Invalid date');
  });
});
