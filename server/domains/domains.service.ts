import { AUTH_MESSAGES } from '@contracts/auth';
import type { Db } from '../platform/db/client';
import { AppError } from '../platform/errors';
import { lockPlanOf, requireWithinLimit } from '../plans/plan-gate.service';
import { countUserDomains, insertDomain, type DomainRow } from './domains.repo';

// What other capabilities may ask of domains: whether a user has a domain that passes its DNS checks
// (an inbox test needs one), who verified a domain (mailed DMARC reports go to them) and a user's
// domains with their check statuses (delivery events explain policy bounces with them). Everything else about
// domains belongs to the domains routes.
export { findUserDomain, hasHealthyDomain, listUserDomains, verifiedOwnersOf } from './domains.repo';

/**
 * Adds a domain within the plan's domain limit (ADR 032): 409 when the user already has it, the
 * limit's 403 when it would be one too many. The user row is locked for the count and the insert, so
 * two adds racing for the last free slot run one after the other and the second is refused.
 */
export async function addDomain(db: Db, userId: number, name: string, type: DomainRow['type']): Promise<DomainRow> {
  return db.transaction(async (tx) => {
    const plan = await lockPlanOf(tx, userId);
    if (!plan) throw new AppError('unauthorized', AUTH_MESSAGES.notSignedIn);
    const row = await insertDomain(tx, userId, name, type);
    if (!row) throw new AppError('conflict', 'You already added this domain');
    // Counted with the new row, inside the lock: a refusal rolls the insert back.
    requireWithinLimit(plan, 'domains', await countUserDomains(tx, userId));
    return row;
  });
}
