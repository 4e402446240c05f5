import { PLAN_IDS, PLAN_LABELS, planHasFeature, type PlanFeature } from '@contracts/plans';
import { AppError } from '../platform/errors';
import type { UserRow } from './users.repo';
import { toUser } from './accounts.service';

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
