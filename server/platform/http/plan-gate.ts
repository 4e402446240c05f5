import { PLAN_IDS, PLAN_LIMITS, PLAN_NAMES, PlanId, lowestPlanWith, planHasFeature, type PlanFeature, type PlanLimits } from '@contracts/plans';
import type { UserRow } from '../db/schema/index';
import { AppError } from '../errors';

const KNOWN_PLANS: ReadonlySet<string> = new Set(PLAN_IDS);

/** The plan a stored user is on; a value this version does not know counts as free. */
export function planOf(user: Pick<UserRow, 'subscriptionPlan'>): PlanId {
  // A set lookup, not a zod parse: this runs on every signed-in answer that carries the user.
  return KNOWN_PLANS.has(user.subscriptionPlan) ? (user.subscriptionPlan as PlanId) : 'free';
}

/** What the user's plan allows (ADR 032); null means unlimited. */
export function limitsOf(user: Pick<UserRow, 'subscriptionPlan'>): PlanLimits {
  return PLAN_LIMITS[planOf(user)];
}

/** The lowest plan that has `feature`, by name as the upgrade banner says it ("Professional"). */
export function lowestPlanNameWith(feature: PlanFeature): string {
  return PLAN_NAMES[lowestPlanWith(feature)];
}

/**
 * The one plan gate every capability uses: a 403 with the banner's words (part 1 section 6:
 * 'Requires {plan} plan') when the user's plan lacks `feature`.
 */
export function requireFeature(user: Pick<UserRow, 'subscriptionPlan'>, feature: PlanFeature): void {
  if (!planHasFeature(planOf(user), feature)) throw new AppError('forbidden', `Requires ${lowestPlanNameWith(feature)} plan`);
}
