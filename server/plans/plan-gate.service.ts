import {
  PLAN_FEATURE_SETS,
  PLAN_IDS,
  PLAN_LIMITS,
  PLAN_NAMES,
  PlanId,
  lowestPlanWith,
  planHasFeature,
  planLiftingLimit,
  type PlanFeature,
  type PlanLimits,
} from '@contracts/plans';
import { nextMonthStart, utcDay } from '@contracts/utc-day';
import { emailsThisMonth } from '../insights/email-metric-days';
import type { Db, Executor } from '../platform/db/client';
import type { UserRow } from '../platform/db/schema/index';
import { AppError } from '../platform/errors';
import type { ApiKeyTerms } from '../platform/http/api-key-auth';
import { claimMonthly, lockedPlanOf, recordEmailRefusal, storedPlanOf } from './plan-usage.repo';

/*
 * The one place that says what a plan allows (ADR 032): its feature flags and its limits. Every capability asks
 * here (this file is the plans capability's public operations); the figures themselves are in contracts/plans.ts,
 * shared with the web. The platform's API-key authentication gets its part through apiKeyTerms.
 */

const KNOWN_PLANS: ReadonlySet<string> = new Set(PLAN_IDS);
type PlanHolder = Pick<UserRow, 'subscriptionPlan'>;

/** The plan a stored user is on; a value this version does not know counts as free. */
export function planOf(user: PlanHolder): PlanId {
  // A set lookup, not a zod parse: this runs on every signed-in answer that carries the user.
  return KNOWN_PLANS.has(user.subscriptionPlan) ? (user.subscriptionPlan as PlanId) : 'free';
}

/** What the user's plan allows; null means unlimited. */
export function limitsOf(user: PlanHolder): PlanLimits {
  return PLAN_LIMITS[planOf(user)];
}

/** The flags the user's plan has. */
export function featuresOf(user: PlanHolder): PlanFeature[] {
  return [...PLAN_FEATURE_SETS[planOf(user)]];
}

/** Whether the user's plan has `feature` (for work that skips rather than refuses, like a Slack alert on a lower plan). */
export function hasFeature(user: PlanHolder, feature: PlanFeature): boolean {
  return planHasFeature(planOf(user), feature);
}

/** The lowest plan that has `feature`, by name as the upgrade banner says it ("Professional"). */
export function lowestPlanNameWith(feature: PlanFeature): string {
  return PLAN_NAMES[lowestPlanWith(feature)];
}

/**
 * The one plan gate every capability uses: a 403 with the banner's words (part 1 section 6:
 * 'Requires {plan} plan') when the user's plan lacks `feature`.
 */
export function requireFeature(user: PlanHolder, feature: PlanFeature): void {
  if (!hasFeature(user, feature)) throw new AppError('forbidden', `Requires ${lowestPlanNameWith(feature)} plan`);
}

/**
 * What an API key may do under its user's plan, for the platform's bearer authentication: only with api_access,
 * and within the plan's hourly quota (a plan without a figure is held to the highest documented one), or within
 * `override` whatever the plan (tests and operators: API_RATE_LIMIT_OVERRIDE).
 */
export function apiKeyTerms(override: number | undefined): ApiKeyTerms {
  return {
    requireAccess: (user) => requireFeature(user, 'api_access'),
    requestsPerHour: override === undefined ? (user) => limitsOf(user).apiRequestsPerHour ?? 100_000 : () => override,
  };
}

/** The limits something is counted against (retention and the API quota are enforced elsewhere). */
export type CountedLimit = 'domains' | 'inboxTestsPerMonth' | 'emailsPerMonth';

const COUNTED: Record<CountedLimit, (n: string) => string> = {
  domains: (n) => (n === '1' ? '1 domain' : `${n} domains`),
  inboxTestsPerMonth: (n) => (n === '1' ? '1 inbox test per month' : `${n} inbox tests per month`),
  // The pricing page's words: "10,000 emails per month".
  emailsPerMonth: (n) => `${n} emails per month`,
};

/**
 * The 403 of a limit reached: what the plan allows, then the banner's 'Requires {plan} plan' naming
 * the pricing-page plan that lifts it, e.g. "Your Free plan allows 5 domains. Requires Professional plan".
 */
export function limitReached(plan: PlanId, limit: CountedLimit): AppError {
  const allowed = PLAN_LIMITS[plan][limit];
  const lifter = planLiftingLimit(plan, limit);
  const what = `Your ${PLAN_NAMES[plan]} plan allows ${COUNTED[limit](allowed === null ? 'unlimited' : allowed.toLocaleString('en-US'))}.`;
  return new AppError('forbidden', lifter ? `${what} Requires ${PLAN_NAMES[lifter]} plan` : what);
}

/** Throws the limit's 403 when `total` (what the user would have, counting what is being added) passes it. */
export function requireWithinLimit(plan: PlanId, limit: CountedLimit, total: number): void {
  const allowed = PLAN_LIMITS[plan][limit];
  if (allowed !== null && total > allowed) throw limitReached(plan, limit);
}

/**
 * Inside the caller's transaction: the user's plan as stored now, with the user row locked until the
 * transaction ends, so two requests of one user that count and then add (the last free domain) run
 * one after the other, and a plan change waits for them. Undefined when the user is gone.
 */
export async function lockPlanOf(tx: Executor, userId: number): Promise<PlanId | undefined> {
  const stored = await lockedPlanOf(tx, userId);
  return stored === undefined ? undefined : planOf({ subscriptionPlan: stored });
}

/** The calendar-month counters (UTC) kept beside the rate limits, by what they count. */
const MONTHLY_COUNTERS = { inboxTestsPerMonth: 'inbox-tests-month' } as const;
export type MonthlyCounter = keyof typeof MONTHLY_COUNTERS;

export const monthlyCounterKey = (counter: MonthlyCounter, userId: number) => `${MONTHLY_COUNTERS[counter]}:${userId}`;

/**
 * Counts one more of `counter` this month for the user, or throws the limit's 403 when the plan's
 * allowance is used up. One conditional upsert: concurrent claims never pass the allowance between
 * them. Deleting what was made does not give the claim back (a started inbox test used the seeds).
 */
export async function claimMonthlyAllowance(
  ex: Executor,
  user: Pick<UserRow, 'id' | 'subscriptionPlan'>,
  counter: MonthlyCounter,
): Promise<void> {
  const plan = planOf(user);
  const allowed = PLAN_LIMITS[plan][counter];
  if (allowed !== null && allowed < 1) throw limitReached(plan, counter);
  if (!(await claimMonthly(ex, monthlyCounterKey(counter, user.id), allowed))) throw limitReached(plan, counter);
}

/** What a push of sent mail would store: where from, and how many delivery events. */
export interface EmailPush {
  source: string;
  /** Delivery events in the request (0 for a day's totals). */
  events: number;
  /** What the refusal means for this request, in words: "the 3 delivery events of this request were not stored" */
  notStored: string;
}

/** A push of `n` delivery events from `source`. */
export const eventPush = (source: string, n: number): EmailPush => ({
  source,
  events: n,
  notStored:
    n === 1
      ? 'the delivery event of this request was not stored'
      : `the ${n.toLocaleString('en-US')} delivery events of this request were not stored`,
});

/** A push of a day's totals from `source`. */
export const dayTotalsPush = (source: string): EmailPush => ({
  source,
  events: 0,
  notStored: 'the day’s figures of this request were not stored',
});

/**
 * The monthly e-mail volume (ADR 032, ADR 043): a push of sent mail (delivery events, day totals) is
 * refused once the e-mails counted this UTC month reach the plan's allowance, with a 429 whose
 * message the MTA logs (the limit, the count, the upgrade page, when the count starts again) and a
 * Retry-After until the month ends; the refusal is recorded for the Integrations screen. A batch
 * that starts under the allowance is taken whole. Callers ask only when the request would store
 * something: a request that stores nothing is never refused. Unlimited plans cost one primary-key
 * read, or none when the caller knows the user row.
 */
export async function requireEmailAllowance(
  db: Db,
  user: number | (PlanHolder & { id: number }),
  push: EmailPush,
  appUrl: string,
  now = new Date(),
): Promise<void> {
  const userId = typeof user === 'number' ? user : user.id;
  const stored = typeof user === 'number' ? await storedPlanOf(db, userId) : user.subscriptionPlan;
  if (stored === undefined) return;
  const plan = planOf({ subscriptionPlan: stored });
  const allowed = PLAN_LIMITS[plan].emailsPerMonth;
  if (allowed === null) return;
  const counted = await emailsThisMonth(db, userId);
  if (counted < allowed) return;

  await recordEmailRefusal(db, userId, push.source, push.events);
  const lifter = planLiftingLimit(plan, 'emailsPerMonth');
  const restart = nextMonthStart(now);
  const upgrade = lifter
    ? `Upgrade to the ${PLAN_NAMES[lifter]} plan at ${appUrl.replace(/\/+$/, '')}/pricing to store them; the`
    : 'The';
  throw new AppError(
    'rate_limited',
    `Your ${PLAN_NAMES[plan]} plan allows ${COUNTED.emailsPerMonth(allowed.toLocaleString('en-US'))} and ${counted.toLocaleString('en-US')} were counted this month, ` +
      `so ${push.notStored}. ${upgrade} count starts again on ${utcDay(restart)} (UTC).`,
    { 'retry-after': String(Math.max(1, Math.ceil((restart.getTime() - now.getTime()) / 1000))) },
  );
}
