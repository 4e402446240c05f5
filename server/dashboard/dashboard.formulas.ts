import type { DashboardOverview } from '@contracts/dashboard';
import { percentOf, sendingRates } from '@contracts/figures';
import type { OverviewInputs } from '../insights/dashboard-figures';

export type { OverviewInputs };

const oneDecimal = (n: number) => Math.round(n * 10) / 10;
const percentString = (value: number | null) => (value === null ? null : value.toFixed(2));

/**
 * The overview formulas (docs/dashboard-formulas.md). A figure with nothing to stand on is null,
 * never a guess: the screen then says 'No Data'.
 */
export function computeOverview(input: OverviewInputs): DashboardOverview {
  const { domains, inboxTests, metrics } = input;
  // Share of SPF, DKIM and DMARC checks that are valid, over domains checked at least once.
  const authenticationScore =
    domains.checked > 0 ? oneDecimal((domains.validChecks / (domains.checked * 3)) * 100) : null;
  const domainReputation = domains.reputationAvg === null ? null : oneDecimal(domains.reputationAvg);
  const ipReputation = input.ips.senderScoreAvg === null ? null : oneDecimal(input.ips.senderScoreAvg);
  const inbox = percentOf(inboxTests.completedInbox, inboxTests.completedSeeds);
  // The same rates the ESP Data view shows (contracts/figures.ts).
  const rates = sendingRates(metrics);
  const bounce = metrics.rows > 0 ? rates.bounceRate : null;
  const complaint = metrics.rows > 0 ? rates.complaintRate : null;

  const parts = [domainReputation, ipReputation, authenticationScore, inbox].filter((v): v is number => v !== null);
  const healthScore = parts.length > 0 ? Math.round(parts.reduce((a, b) => a + b, 0) / parts.length) : null;

  return {
    healthScore,
    domainReputation,
    ipReputation,
    authenticationScore,
    inboxRate: percentString(inbox),
    bounceRate: percentString(bounce),
    complaintRate: percentString(complaint),
    isEmpty: domains.count === 0 && inboxTests.count === 0 && input.activeIntegrations === 0 && metrics.rows === 0,
    counts: { domains: domains.count, inboxTests: inboxTests.count, activeIntegrations: input.activeIntegrations },
  };
}
