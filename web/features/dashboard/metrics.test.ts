import { describe, expect, it } from 'vitest';
import {
  authCompleteness,
  barWidth,
  bounceRateRating,
  complaintRateRating,
  dataSources,
  deliveredTone,
  healthScoreRating,
  inboxRateRating,
  inboxTestStatusTone,
  inboxTestTitle,
  latest,
  needsImprovement,
  overallDeliverabilityRating,
  scoreTone,
  summarizeDomains,
  summarizeInboxTests,
  summarizeMetrics,
  tenfoldBarWidth,
} from './metrics';
import { metricsWindowStart } from '@contracts/figures';
import { makeDomain, makeMetric, makeTest } from './test/fixtures';

describe('overview thresholds', () => {
  it('Email Health Score labels at 90, 80, 70', () => {
    expect(healthScoreRating(100).label).toBe('Excellent');
    expect(healthScoreRating(90).label).toBe('Excellent');
    expect(healthScoreRating(89.9).label).toBe('Good');
    expect(healthScoreRating(80).label).toBe('Good');
    expect(healthScoreRating(79.9).label).toBe('Fair');
    expect(healthScoreRating(70).label).toBe('Fair');
    expect(healthScoreRating(69.9).label).toBe('Needs Improvement');
    expect(healthScoreRating(0).label).toBe('Needs Improvement');
    expect(healthScoreRating(null)).toEqual({ label: 'No Data', tone: 'none' });
  });

  it('bar colours: 90+ green, 70+ yellow, else red, no data grey', () => {
    expect(scoreTone(90)).toBe('good');
    expect(scoreTone(89.9)).toBe('warn');
    expect(scoreTone(70)).toBe('warn');
    expect(scoreTone(69.9)).toBe('bad');
    expect(scoreTone(null)).toBe('none');
  });

  it('Improvement Tip advises below 80', () => {
    expect(needsImprovement(79.9)).toBe(true);
    expect(needsImprovement(80)).toBe(false);
    expect(needsImprovement(null)).toBe(true);
  });

  it('Inbox Rate: 90+ Excellent, 70+ Good, else Poor', () => {
    expect(inboxRateRating(90).label).toBe('Excellent');
    expect(inboxRateRating(89.99).label).toBe('Good');
    expect(inboxRateRating(70).label).toBe('Good');
    expect(inboxRateRating(69.99).label).toBe('Poor');
    expect(inboxRateRating(null).label).toBe('No Data');
  });

  it('Bounce Rate: 2 or less Excellent, 5 or less Acceptable, else High', () => {
    expect(bounceRateRating(0).label).toBe('Excellent');
    expect(bounceRateRating(2).label).toBe('Excellent');
    expect(bounceRateRating(2.01).label).toBe('Acceptable');
    expect(bounceRateRating(5).label).toBe('Acceptable');
    expect(bounceRateRating(5.01).label).toBe('High');
    expect(bounceRateRating(null).label).toBe('No Data');
  });

  it('Complaint Rate: 0.1 or less Excellent, 0.3 or less Acceptable, else High', () => {
    expect(complaintRateRating(0.1).label).toBe('Excellent');
    expect(complaintRateRating(0.11).label).toBe('Acceptable');
    expect(complaintRateRating(0.3).label).toBe('Acceptable');
    expect(complaintRateRating(0.31).label).toBe('High');
    expect(complaintRateRating(null).label).toBe('No Data');
  });

  it('complaint bar is 10 times the percent, capped at 100', () => {
    expect(tenfoldBarWidth(0.05)).toBeCloseTo(0.5);
    expect(tenfoldBarWidth(3)).toBe(30);
    expect(tenfoldBarWidth(9.99)).toBeCloseTo(99.9);
    expect(tenfoldBarWidth(10)).toBe(100);
    expect(tenfoldBarWidth(25)).toBe(100);
    expect(tenfoldBarWidth(null)).toBe(0);
    expect(barWidth(120)).toBe(100);
    expect(barWidth(-3)).toBe(0);
  });
});

describe('domain health', () => {
  it('completeness: 3 Complete, 2 Partial, 1 Minimal, 0 Missing', () => {
    expect(authCompleteness(makeDomain()).label).toBe('Complete');
    expect(authCompleteness(makeDomain({ dmarcStatus: 'invalid' })).label).toBe('Partial');
    expect(authCompleteness(makeDomain({ dmarcStatus: null, dkimStatus: 'missing' })).label).toBe('Minimal');
    expect(authCompleteness(makeDomain({ spfStatus: null, dkimStatus: null, dmarcStatus: null })).label).toBe(
      'Missing',
    );
  });

  it('scores are shares of healthy and fully authenticated domains', () => {
    const summary = summarizeDomains([
      makeDomain({ id: 1 }),
      makeDomain({ id: 2, status: 'warning', dkimStatus: 'invalid' }),
      makeDomain({ id: 3, status: 'error' }),
      makeDomain({ id: 4, status: 'pending', spfStatus: null }),
    ]);
    expect(summary).toMatchObject({ total: 4, healthy: 1, issues: 2, healthScore: 25, authenticationScore: 50 });
    expect(summarizeDomains([])).toMatchObject({ total: 0, healthScore: null, authenticationScore: null });
  });
});

describe('inbox tests', () => {
  it('title: subject, else awaiting email, else Test #id', () => {
    expect(inboxTestTitle({ id: 7, subject: 'Hello', status: 'awaiting_email' })).toBe('Hello');
    expect(inboxTestTitle({ id: 7, subject: null, status: 'awaiting_email' })).toBe('Awaiting Email - Test #7');
    expect(inboxTestTitle({ id: 7, subject: '', status: 'running' })).toBe('Test #7');
    expect(inboxTestTitle({ id: 8, subject: null, status: 'completed' })).toBe('Test #8');
  });

  it('status badge: green completed, yellow running, grey otherwise', () => {
    expect(inboxTestStatusTone('completed')).toBe('good');
    expect(inboxTestStatusTone('running')).toBe('warn');
    expect(inboxTestStatusTone('awaiting_email')).toBe('none');
    expect(inboxTestStatusTone('failed')).toBe('none');
  });

  it('rates are sums over completed tests divided by total seeds; averages per test', () => {
    const summary = summarizeInboxTests([
      makeTest({ id: 1, totalSeeds: 10, inboxCount: 10, spamCount: 0, missingCount: 0 }),
      makeTest({ id: 2, totalSeeds: 30, inboxCount: 15, spamCount: 12, missingCount: 3 }),
      makeTest({ id: 3, status: 'running', totalSeeds: 50, inboxCount: 0, spamCount: 0, missingCount: 0 }),
      makeTest({ id: 4, status: 'awaiting_email', totalSeeds: 0, inboxCount: 0, spamCount: 0, missingCount: 0 }),
    ]);
    expect(summary.completed).toBe(2);
    expect(summary.running).toBe(1);
    expect(summary.totalSeeds).toBe(40);
    expect(summary.inboxRate).toBeCloseTo(62.5);
    expect(summary.spamRate).toBeCloseTo(30);
    expect(summary.missingRate).toBeCloseTo(7.5);
    expect(summary.average?.inboxRate).toBeCloseTo(75);
    expect(summary.average?.spamRate).toBeCloseTo(20);
    expect(summarizeInboxTests([makeTest({ status: 'running' })])).toMatchObject({ inboxRate: null, average: null });
  });

  it('Overall Email Deliverability: Excellent at 80+, Good at 60+, else Needs Attention', () => {
    expect(overallDeliverabilityRating(80).label).toBe('Excellent');
    expect(overallDeliverabilityRating(79.9).label).toBe('Good');
    expect(overallDeliverabilityRating(60).label).toBe('Good');
    expect(overallDeliverabilityRating(59.9).label).toBe('Needs Attention');
  });

  it('latest keeps the 5 newest', () => {
    const items = [1, 2, 3, 4, 5, 6, 7].map((n) => ({ id: n, createdAt: `2025-01-0${n}T00:00:00Z` }));
    expect(latest(items).map((i) => i.id)).toEqual([7, 6, 5, 4, 3]);
  });
});

describe('ESP data', () => {
  const now = new Date('2025-06-30T12:00:00Z');

  it('counts only the 30 days ending today', () => {
    expect(metricsWindowStart(now)).toBe('2025-06-01');
    const summary = summarizeMetrics(
      [
        makeMetric({ id: 1, date: '2025-06-30', emailsSent: 1000, delivered: 990, bounced: 7, complaints: 1 }),
        makeMetric({ id: 2, date: '2025-06-01', emailsSent: 2000, delivered: 1900, bounced: 80, complaints: 2 }),
        makeMetric({ id: 3, date: '2025-05-31', emailsSent: 9999, delivered: 0, bounced: 9999, complaints: 0 }),
      ],
      now,
    );
    expect(summary.sent).toBe(3000);
    expect(summary.delivered).toBe(2890);
    expect(summary.deliveryRate).toBeCloseTo(96.333, 3);
    expect(summary.bounceRate).toBeCloseTo(2.9, 3);
    // Complaints per delivered message (Google Postmaster's spam rate), not per sent: 3 / 2890.
    expect(summary.complaintRate).toBeCloseTo(0.1038, 4);
    expect(summarizeMetrics([], now)).toMatchObject({ sent: 0, deliveryRate: null });
  });

  it('delivered percent: 95+ green, 90+ yellow, else red', () => {
    expect(deliveredTone(95)).toBe('good');
    expect(deliveredTone(94.99)).toBe('warn');
    expect(deliveredTone(90)).toBe('warn');
    expect(deliveredTone(89.99)).toBe('bad');
    expect(deliveredTone(null)).toBe('none');
  });
});

describe('data sources', () => {
  it('needs a domain, a test and an active integration for the specific views', () => {
    const none = dataSources({ domains: 0, inboxTests: 0, activeIntegrations: 0 });
    expect(none.map((s) => [s.id, s.available])).toEqual([
      ['overview', true],
      ['domain-health', false],
      ['inbox-tests', false],
      ['esp-data', false],
    ]);
    expect(none[0].label).toBe('Combined Overview');
    const all = dataSources({ domains: 1, inboxTests: 1, activeIntegrations: 1 });
    expect(all.every((s) => s.available)).toBe(true);
  });
});
