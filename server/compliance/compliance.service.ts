import type { ComplianceScorecard } from '@contracts/compliance';
import type { Executor } from '../platform/db/client';
import { listUserDomainIds, loadComplianceEvidence } from '../insights/compliance-evidence';
import { buildScorecard } from './scorecard';

// What other capabilities may ask of compliance: a domain's scorecard, and every checked domain's (the dashboard's
// count and the alert evaluation read them).

/** The scorecard of one of the user's domains; undefined when the user has no such domain. */
export async function domainScorecard(
  ex: Executor,
  userId: number,
  domainId: number,
  now = new Date(),
): Promise<ComplianceScorecard | undefined> {
  const data = await loadComplianceEvidence(ex, userId, domainId, now);
  return data && buildScorecard(data, now);
}

/** The scorecards of the user's checked domains, one after the other (the executor may be one connection). */
export async function userScorecards(ex: Executor, userId: number, now = new Date()): Promise<ComplianceScorecard[]> {
  const cards: ComplianceScorecard[] = [];
  for (const id of await listUserDomainIds(ex, userId)) {
    const card = await domainScorecard(ex, userId, id, now);
    if (card) cards.push(card);
  }
  return cards;
}
