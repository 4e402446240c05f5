import { describe, expect, it } from 'vitest';
import { computeOverview, type OverviewInputs } from './dashboard.formulas';

const empty: OverviewInputs = {
  domains: { count: 0, checked: 0, validChecks: 0, reputationAvg: null },
  inboxTests: { count: 0, completedSeeds: 0, completedInbox: 0 },
  activeIntegrations: 0,
  metrics: { rows: 0, sent: 0, delivered: 0, bounced: 0, complaints: 0 },
  ips: { senderScoreAvg: null },
};

describe('dashboard overview formulas', () => {
  it('is empty with every figure null when the user has nothing', () => {
    expect(computeOverview(empty)).toEqual({
      healthScore: null,
      domainReputation: null,
      ipReputation: null,
      authenticationScore: null,
      inboxRate: null,
      bounceRate: null,
      complaintRate: null,
      isEmpty: true,
      counts: { domains: 0, inboxTests: 0, activeIntegrations: 0 },
    });
  });

  it('scores authentication as the share of valid SPF/DKIM/DMARC checks over checked domains only', () => {
    // Two checked domains: 3 + 2 valid of 6 checks; a third, unchecked domain does not count.
    const o = computeOverview({ ...empty, domains: { count: 3, checked: 2, validChecks: 5, reputationAvg: null } });
    expect(o.authenticationScore).toBe(83.3);
    expect(o.healthScore).toBe(83);
    expect(o.isEmpty).toBe(false);
  });

  it('leaves authentication null while no domain has been checked', () => {
    expect(
      computeOverview({ ...empty, domains: { count: 1, checked: 0, validChecks: 0, reputationAvg: null } })
        .authenticationScore,
    ).toBeNull();
  });

  it('computes the inbox rate over completed tests as a two-decimal percent string', () => {
    const o = computeOverview({ ...empty, inboxTests: { count: 4, completedSeeds: 30, completedInbox: 27 } });
    expect(o.inboxRate).toBe('90.00');
    expect(o.healthScore).toBe(90);
    expect(
      computeOverview({ ...empty, inboxTests: { count: 2, completedSeeds: 0, completedInbox: 0 } }).inboxRate,
    ).toBeNull();
  });

  it('computes bounce against sent and complaints against delivered', () => {
    const o = computeOverview({
      ...empty,
      metrics: { rows: 3, sent: 10_000, delivered: 9_800, bounced: 200, complaints: 7 },
    });
    expect(o.bounceRate).toBe('2.00');
    expect(o.complaintRate).toBe('0.07');
    // Metrics alone give no health score: none of its four parts comes from them.
    expect(o.healthScore).toBeNull();
  });

  it('averages only the parts that exist into the health score', () => {
    const o = computeOverview({
      ...empty,
      domains: { count: 1, checked: 1, validChecks: 3, reputationAvg: 70 },
      inboxTests: { count: 1, completedSeeds: 10, completedInbox: 8 },
    });
    expect([o.domainReputation, o.ipReputation, o.authenticationScore, o.inboxRate]).toEqual([70, null, 100, '80.00']);
    expect(o.healthScore).toBe(83); // (70 + 100 + 80) / 3
  });

  it('shows the mean sender score of the checked IPs as IP reputation, and counts it in the health score', () => {
    const o = computeOverview({
      ...empty,
      ips: { senderScoreAvg: 82.25 },
      inboxTests: { count: 1, completedSeeds: 10, completedInbox: 10 },
    });
    expect(o.ipReputation).toBe(82.3);
    expect(o.healthScore).toBe(91); // (82.3 + 100) / 2
    expect(computeOverview({ ...empty, ips: { senderScoreAvg: null } }).ipReputation).toBeNull();
  });
});
