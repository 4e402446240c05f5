import { describe, expect, it } from 'vitest';
import {
  ipBadge,
  isPolicyOnlyListing,
  rateDeduction,
  senderScore,
  type ScoreInput,
  type ScoredListing,
} from './sender-score';

const zen: ScoredListing = { name: 'Spamhaus ZEN', tier: 1, policyOnly: false };
const spamcop: ScoredListing = { name: 'SpamCop', tier: 2, policyOnly: false };
const minor: ScoredListing = { name: 'Minor List', tier: 3, policyOnly: false };
const pbl: ScoredListing = { name: 'Spamhaus ZEN', tier: 1, policyOnly: true };
const confirmed = { name: 'mail.example.com', confirmed: true, failed: false };
const base: ScoreInput = {
  target: '203.0.113.7',
  listings: [],
  listsAsked: 40,
  reverseDns: confirmed,
  dmarc: null,
  placement: null,
};
const score = (input: Partial<ScoreInput>) => senderScore({ ...base, ...input });

describe('senderScore', () => {
  it('is 100 for an address on no list with forward-confirmed reverse DNS and no other data, and says so', () => {
    expect(score({})).toEqual({
      score: 100,
      factors: [
        { label: 'Blocklists', points: 0, detail: 'Not listed on any of the 40 lists checked' },
        {
          label: 'Reverse DNS forward-confirmed',
          points: 0,
          detail: '203.0.113.7 points to mail.example.com, which resolves back to it.',
        },
      ],
    });
  });

  it('takes 35, 15 and 5 off per listing by tier, and 5 for a policy-only listing on a tier-1 list', () => {
    expect(score({ listings: [zen] }).score).toBe(65);
    expect(score({ listings: [zen] }).factors[0]).toMatchObject({
      label: 'Listed on Spamhaus ZEN (tier 1)',
      points: 35,
    });
    expect(score({ listings: [spamcop] }).score).toBe(85);
    expect(score({ listings: [minor] }).score).toBe(95);
    expect(score({ listings: [pbl] }).score).toBe(95);
    expect(score({ listings: [pbl] }).factors[0].label).toBe(
      'Listed on Spamhaus ZEN (policy listing, counted as tier 3)',
    );
    expect(score({ listings: [zen, spamcop, minor] }).score).toBe(45);
  });

  it('takes 10 off without a PTR name, 5 for one not forward-confirmed, nothing when the lookup failed, and has no term for a domain', () => {
    expect(score({ reverseDns: { name: null, confirmed: false, failed: false } })).toMatchObject({ score: 90 });
    expect(score({ reverseDns: { name: 'host.example.net', confirmed: false, failed: false } }).score).toBe(95);
    expect(score({ reverseDns: { name: null, confirmed: false, failed: true } })).toMatchObject({
      score: 100,
      factors: [expect.anything(), { label: 'Reverse DNS not known', points: 0, detail: expect.any(String) }],
    });
    const domain = senderScore({ ...base, target: 'example.com', reverseDns: undefined });
    expect(domain.factors.map((f) => f.label)).toEqual(['Blocklists']);
  });

  it('DMARC: nothing at 95% and above, (95 - rate) / 2 below, at most 25, no term without reports', () => {
    expect(score({ dmarc: { total: 100, good: 95 } })).toMatchObject({ score: 100 });
    expect(score({ dmarc: { total: 100, good: 95 } }).factors[2]).toMatchObject({
      label: 'DMARC pass rate 95%',
      points: 0,
    });
    expect(score({ dmarc: { total: 100, good: 85 } }).score).toBe(95);
    expect(score({ dmarc: { total: 100, good: 85 } }).factors[2]).toMatchObject({
      label: 'DMARC pass rate 85%',
      points: 5,
    });
    expect(score({ dmarc: { total: 100, good: 45 } }).score).toBe(75); // exactly 25
    expect(score({ dmarc: { total: 100, good: 0 } }).score).toBe(75); // capped
    expect(score({ dmarc: { total: 0, good: 0 } }).factors).toHaveLength(2);
  });

  it('placement: nothing at 90% and above, (90 - inbox%) / 2 below, at most 25, no term without tests', () => {
    expect(score({ placement: { total: 10, good: 9 } }).score).toBe(100);
    expect(score({ placement: { total: 10, good: 7 } }).score).toBe(90);
    expect(score({ placement: { total: 10, good: 7 } }).factors[2]).toMatchObject({
      label: 'Inbox placement 70%',
      points: 10,
    });
    expect(score({ placement: { total: 10, good: 4 } }).score).toBe(75); // exactly 25
    expect(score({ placement: { total: 10, good: 0 } }).score).toBe(75);
    expect(score({ placement: null }).factors).toHaveLength(2);
  });

  it('never goes below 0', () => {
    const all = score({
      listings: [zen, zen, zen],
      reverseDns: { name: null, confirmed: false, failed: false },
      dmarc: { total: 1, good: 0 },
    });
    expect(all.score).toBe(0);
    expect(all.factors.reduce((s, f) => s + f.points, 0)).toBe(105 + 10 + 25);
  });

  it('rounds each deduction to a whole number', () => {
    expect(rateDeduction(94, 95)).toBe(1); // 0.5
    expect(rateDeduction(94.5, 95)).toBe(0); // 0.25
    expect(rateDeduction(95, 95)).toBe(0);
  });
});

describe('isPolicyOnlyListing', () => {
  it('is the Spamhaus PBL codes alone on ZEN or PBL', () => {
    expect(isPolicyOnlyListing('zen.spamhaus.org', ['127.0.0.10'])).toBe(true);
    expect(isPolicyOnlyListing('zen.spamhaus.org', ['127.0.0.11', '127.0.0.10'])).toBe(true);
    expect(isPolicyOnlyListing('zen.spamhaus.org', ['127.0.0.10', '127.0.0.2'])).toBe(false);
    expect(isPolicyOnlyListing('bl.spamcop.net', ['127.0.0.10'])).toBe(false);
    expect(isPolicyOnlyListing('zen.spamhaus.org', [])).toBe(false);
  });
});

describe('ipBadge', () => {
  const check = (listings: ScoredListing[], { unknown = 0, score = 100, listsAsked = 40 } = {}) =>
    ipBadge({ listsAsked, unknown, listings, score });

  it('pending before the first check', () => expect(ipBadge(null)).toBe('pending'));
  it('critical on 3 lists or more, tier 1 or not', () => {
    expect(check([minor, minor, spamcop])).toBe('critical');
    expect(check([zen, spamcop, minor, minor])).toBe('critical');
  });
  it('blocked on a tier-1 list and fewer than 3', () => {
    expect(check([zen])).toBe('blocked');
    expect(check([zen, spamcop])).toBe('blocked');
  });
  it('warning on 1 or 2 lists, none tier 1', () => {
    expect(check([spamcop])).toBe('warning');
    expect(check([spamcop, minor])).toBe('warning');
  });
  it('policy listings do not count as listings: caution', () => {
    expect(check([pbl])).toBe('caution');
    expect(check([pbl, spamcop, minor])).toBe('warning');
  });
  it('unknown when more than half the lists answered unknown and none listed it', () => {
    expect(check([], { unknown: 21 })).toBe('unknown');
    expect(check([], { unknown: 20 })).toBe('clean'); // half is not most
    expect(check([spamcop], { unknown: 39 })).toBe('warning'); // a listing is a conclusion
  });
  it('caution below 90 when not listed; clean at 90 and above', () => {
    expect(check([], { score: 89 })).toBe('caution');
    expect(check([], { score: 90 })).toBe('clean');
    expect(check([])).toBe('clean');
  });
});
