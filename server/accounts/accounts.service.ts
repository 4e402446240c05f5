import { PLAN_IDS, PLAN_LABELS, planHasFeature, type PlanFeature } from '@contracts/plans';
import type { User } from '@contracts/user';
import { AppError } from '../platform/errors';
import type { UserRow } from './users.repo';

// What other capabilities may use of accounts: the user as the API shows it, and the one plan gate.

/** The user as the API shows it: never the password hash. */
export function toUser(row: UserRow): User {
  return {
    id: row.id,
    username: row.username,
    email: row.email,
    emailVerified: row.emailVerifiedAt !== null,
    subscriptionPlan: row.subscriptionPlan === 'professional' ? 'professional' : 'free',
    hasCompletedTour: row.hasCompletedTour,
    createdAt: row.createdAt.toISOString(),
  };
}

/** The lowest plan that has `feature`, by name as the upgrade banner says it ("Professional"). */
export function lowestPlanNameWith(feature: PlanFeature): string {
  const plan = PLAN_IDS.find((id) => planHasFeature(id, feature)) ?? PLAN_IDS[PLAN_IDS.length - 1];
  return PLAN_LABELS[plan].replace(/ Plan$/, '');
}

/**
 * The one plan gate every capability uses: a 403 with the banner's words (part 1 section 6:
 * 'Requires {plan} plan') when the user's plan lacks `feature`.
 */
export function requireFeature(user: UserRow, feature: PlanFeature): void {
  if (!planHasFeature(toUser(user).subscriptionPlan, feature)) {
    throw new AppError('forbidden', `Requires ${lowestPlanNameWith(feature)} plan`);
  }
}
