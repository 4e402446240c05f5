import { describe, expect, it } from 'vitest';
import { findBlocklist, type DnsblCatalogueEntry } from '../engine/blocklists/dnsbl';
import { alertSeverity, describeChange, namesInWords, type AlertListing, type ListingChange } from './blocklist-alerts';

const list = (id: string) => findBlocklist(id) as DnsblCatalogueEntry;
const on = (id: string, policyOnly = false): AlertListing => ({
  list: list(id),
  reason: `reason of ${id}`,
  policyOnly,
});
const change = (parts: Partial<ListingChange>): ListingChange => ({
  userId: 1,
  kind: 'ip',
  target: '203.0.113.7',
  checkedAt: new Date('2026-03-01T10:00:00Z'),
  added: [],
  removed: [],
  still: [],
  totalProviders: 40,
  ...parts,
});

describe('blocklist alerts', () => {
  it('names lists in words', () => {
    expect(namesInWords(['A'])).toBe('A');
    expect(namesInWords(['A', 'B'])).toBe('A and B');
    expect(namesInWords(['A', 'B', 'C'])).toBe('A, B and C');
  });

  it('is critical while on a tier-1 list or on 3 lists, warning for other listings', () => {
    expect(list('spamcop').tier).toBe(1);
    expect(list('psbl').tier).toBe(2);
    expect(alertSeverity(change({ added: [on('spamcop')] }))).toBe('critical');
    expect(alertSeverity(change({ added: [on('psbl')] }))).toBe('warning');
    expect(alertSeverity(change({ added: [on('psbl')], still: [on('mailspike-bl'), on('uceprotect-2')] }))).toBe(
      'critical',
    );
    expect(alertSeverity(change({ added: [on('spamhaus-zen', true)] }))).toBe('warning'); // PBL: policy, not tier 1
    expect(alertSeverity(change({ removed: [on('spamcop')], still: [on('spamhaus-zen')] }))).toBe('critical');
    expect(alertSeverity(change({ removed: [on('spamcop')], still: [on('psbl')] }))).toBe('warning');
  });

  it('says what changed in the title and message, and gives the detail view its metadata', () => {
    const c = change({
      added: [on('spamhaus-zen'), on('spamcop')],
      removed: [on('psbl')],
      still: [on('mailspike-bl')],
    });
    const { title, message, metadata } = describeChange(c);
    expect(title).toBe('203.0.113.7 is now listed on Spamhaus ZEN and SpamCop');
    expect(message).toContain('Spamhaus ZEN lists 203.0.113.7: reason of spamhaus-zen.');
    expect(message).toContain('It was removed from PSBL.');
    expect(message).toContain('It is on 3 of the 40 lists checked.');
    expect(metadata).toEqual({
      ipAddress: '203.0.113.7',
      checkedAt: '2026-03-01T10:00:00.000Z',
      providers: [
        {
          provider: 'Spamhaus ZEN',
          hostname: 'zen.spamhaus.org',
          description: 'reason of spamhaus-zen',
          listed: true,
          checkedAt: '2026-03-01T10:00:00.000Z',
        },
        {
          provider: 'SpamCop',
          hostname: 'bl.spamcop.net',
          description: 'reason of spamcop',
          listed: true,
          checkedAt: '2026-03-01T10:00:00.000Z',
        },
        {
          provider: list('mailspike-bl').name,
          hostname: 'bl.mailspike.net',
          description: 'reason of mailspike-bl',
          listed: true,
          checkedAt: '2026-03-01T10:00:00.000Z',
        },
        {
          provider: 'PSBL',
          hostname: 'psbl.surriel.com',
          description: 'reason of psbl',
          listed: false,
          checkedAt: '2026-03-01T10:00:00.000Z',
        },
      ],
      totalProviders: 40,
      listedCount: 3,
    });
    const partial = describeChange(change({ removed: [on('psbl')], still: [on('mailspike-bl')] }));
    expect(partial.title).toBe(`203.0.113.7 is still listed on ${list('mailspike-bl').name}`);
    expect(partial.message).toBe('It was removed from PSBL. It is on 1 of the 40 lists checked.');
    const removal = describeChange(change({ kind: 'domain', target: 'brand.test', removed: [on('spamhaus-dbl')] }));
    expect(removal.title).toBe('brand.test was removed from Spamhaus DBL');
    expect(removal.message).toBe('It is on none of the 40 lists checked.');
    expect(removal.metadata).toMatchObject({ domain: 'brand.test', listedCount: 0 });
  });
});
