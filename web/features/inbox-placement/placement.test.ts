import { describe, expect, it } from 'vitest';
import { formatRate } from '../../lib/format';
import { breakdownBy, placementRates, providerStatus, sumRows, summarizeResults } from './placement';
import { makeAnalyserRow, makeRow } from './test/fixtures';

describe('providerStatus (part 2, section 4)', () => {
  it('is inbox when any seed saw it in the inbox, else spam, else missing', () => {
    expect(providerStatus(makeRow({ inboxCount: 1, spamCount: 2 }))).toBe('inbox');
    expect(providerStatus(makeRow({ inboxCount: 0, spamCount: 1, missingCount: 1 }))).toBe('spam');
    expect(providerStatus(makeRow({ inboxCount: 0, spamCount: 0, missingCount: 2 }))).toBe('missing');
  });

  it('is pending, not missing, while seeds with no placement have not answered', () => {
    expect(providerStatus(makeRow({ inboxCount: 0, spamCount: 0, missingCount: 0, pendingCount: 1 }))).toBe('pending');
    expect(providerStatus(makeRow({ inboxCount: 0, spamCount: 1, pendingCount: 1 }))).toBe('spam');
  });
});

describe('rates', () => {
  it('are rounded whole percentages of seedsUsed', () => {
    const totals = sumRows([
      makeRow({ inboxCount: 2, spamCount: 0, missingCount: 0, seedsUsed: 2 }),
      makeRow({ inboxCount: 0, spamCount: 1, missingCount: 0, seedsUsed: 1 }),
    ]);
    expect(totals).toEqual({ seedsUsed: 3, inboxCount: 2, spamCount: 1, missingCount: 0, pendingCount: 0 });
    expect(placementRates(totals)).toEqual({ inbox: 67, spam: 33, missing: 0 });
  });

  it('are null, not 0%, when no seed was used', () => {
    expect(placementRates(sumRows([]))).toEqual({ inbox: null, spam: null, missing: null });
    expect(formatRate(null)).toBe('–');
    expect(formatRate(67)).toBe('67%');
  });
});

describe('breakdownBy', () => {
  it('groups rows by region, summing counts and counting distinct providers, biggest first', () => {
    const rows = [
      makeRow({ provider: 'Gmail', region: 'North America', seedsUsed: 2, inboxCount: 2 }),
      makeRow({
        provider: 'Yahoo',
        region: 'North America',
        seedsUsed: 2,
        inboxCount: 0,
        spamCount: 1,
        missingCount: 1,
      }),
      makeRow({ provider: 'GMX', region: 'Europe', country: 'Germany', seedsUsed: 1, inboxCount: 0, missingCount: 1 }),
    ];
    expect(breakdownBy(rows, 'region')).toEqual([
      {
        name: 'North America',
        providers: 2,
        seedsUsed: 4,
        inboxCount: 2,
        spamCount: 1,
        missingCount: 1,
        pendingCount: 0,
        rates: { inbox: 50, spam: 25, missing: 25 },
      },
      {
        name: 'Europe',
        providers: 1,
        seedsUsed: 1,
        inboxCount: 0,
        spamCount: 0,
        missingCount: 1,
        pendingCount: 0,
        rates: { inbox: 0, spam: 0, missing: 100 },
      },
    ]);
    expect(breakdownBy(rows, 'country').map((row) => [row.name, row.seedsUsed])).toEqual([
      ['United States', 4],
      ['Germany', 1],
    ]);
  });

  it('puts rows without a value under "Unknown" and orders ties by name', () => {
    const rows = [
      makeRow({ mailboxSystem: 'Zimbra' }),
      makeRow({ mailboxSystem: '  ' }),
      makeRow({ mailboxSystem: 'Exchange' }),
    ];
    expect(breakdownBy(rows, 'mailboxSystem').map((row) => row.name)).toEqual(['Exchange', 'Unknown', 'Zimbra']);
  });
});

describe('summarizeResults', () => {
  const analyser = makeAnalyserRow();

  it('computes rates over every row and breakdowns over the seed rows', () => {
    const seeds = [
      makeRow({ provider: 'Gmail', seedsUsed: 2, inboxCount: 1, spamCount: 1 }),
      makeRow({ provider: 'GMX', region: 'Europe', seedsUsed: 1, inboxCount: 0, missingCount: 1 }),
    ];
    const summary = summarizeResults(seeds);
    expect(summary.analyserOnly).toBe(false);
    expect(summary.totals.seedsUsed).toBe(3);
    expect(summary.rates).toEqual({ inbox: 33, spam: 33, missing: 33 });
    expect(summary.byRegion.map((row) => row.name)).toEqual(['North America', 'Europe']);
  });

  it('marks a test run by the InboxPulse analyser alone, with its real figures and no regions of its own', () => {
    const summary = summarizeResults([analyser]);
    expect(summary.analyserOnly).toBe(true);
    expect(summary.analyserRows).toEqual([analyser]);
    expect(summary.rates).toEqual({ inbox: 100, spam: 0, missing: 0 });
    expect(summary.byRegion).toEqual([]);
    expect(summarizeResults([]).analyserOnly).toBe(false);
  });
});
