import { z } from 'zod';

/**
 * Plan ids the server stores on a user (users.subscription_plan). The spec's ranking (part 1,
 * section 4: free 0, professional 1) is kept in order, with starter between them and enterprise
 * above: a higher rank is an upgrade, a lower one a downgrade, equal no change. Enterprise ("Custom
 * Enterprise") is never bought on the pricing page; an operator sets it.
 */
export const PLAN_IDS = ['free', 'starter', 'professional', 'enterprise'] as const;
export const PlanId = z.enum(PLAN_IDS);
export type PlanId = z.infer<typeof PlanId>;

export const PLAN_RANK: Record<PlanId, number> = { free: 0, starter: 1, professional: 2, enterprise: 3 };

/** What the sidebar and settings show; enterprise keeps the landing card's name. */
export const PLAN_LABELS: Record<PlanId, string> = {
  free: 'Free Plan',
  starter: 'Starter Plan',
  professional: 'Professional Plan',
  enterprise: 'Custom Enterprise Plan',
};

/** The plan by name inside a sentence: 'Requires {name} plan', 'Your {name} plan allows ...'. */
export const PLAN_NAMES: Record<PlanId, string> = {
  free: 'Free',
  starter: 'Starter',
  professional: 'Professional',
  enterprise: 'Enterprise',
};

/** Feature flags gated by plan (part 1, section 3). Which plan has which: PLAN_FEATURE_SETS (ADR 032). */
export const PLAN_FEATURES = [
  'bulk_ip_import',
  'advanced_analytics',
  'custom_integrations',
  'priority_support',
  'white_label',
  'api_access',
  'bulk_domain_management',
  'advanced_alerting',
  'custom_reports',
  'sso',
  'dedicated_support',
] as const;
export const PlanFeature = z.enum(PLAN_FEATURES);
export type PlanFeature = (typeof PLAN_FEATURES)[number];

const PROFESSIONAL_FEATURES: readonly PlanFeature[] = [
  'api_access',
  'bulk_ip_import',
  'advanced_analytics',
  'priority_support',
  'bulk_domain_management',
  'advanced_alerting',
  'custom_reports',
];

/**
 * The flags each plan has (ADR 032). Part 1 section 6 puts every flag on professional; the landing
 * card gives enterprise custom integrations, dedicated support and white-label on top (and sso with
 * them). Starter has the API only: the documented 1,000 requests an hour would mean nothing without it.
 */
export const PLAN_FEATURE_SETS: Record<PlanId, readonly PlanFeature[]> = {
  free: [],
  starter: ['api_access'],
  professional: PROFESSIONAL_FEATURES,
  enterprise: [...PROFESSIONAL_FEATURES, 'custom_integrations', 'dedicated_support', 'white_label', 'sso'],
};

export function planHasFeature(plan: PlanId, feature: PlanFeature): boolean {
  return PLAN_FEATURE_SETS[plan].includes(feature);
}

/**
 * The plans the pricing page has a card for (part 2, section 9). Starter is named only by the
 * documentation and the older table, so an upgrade prompt never sends anyone to it.
 */
export const PRICING_PAGE_PLANS: readonly PlanId[] = ['free', 'professional', 'enterprise'];

/** The plan an upgrade prompt names for `feature`: the cheapest pricing-page plan that has it. */
export function lowestPlanWith(feature: PlanFeature): PlanId {
  return PRICING_PAGE_PLANS.find((id) => planHasFeature(id, feature)) ?? 'enterprise';
}

/** What the server enforces per plan; null means unlimited (ADR 032). */
export const PlanLimits = z.object({
  domains: z.number().int().nullable(),
  inboxTestsPerMonth: z.number().int().nullable(),
  emailsPerMonth: z.number().int().nullable(),
  retentionDays: z.number().int().nullable(),
  apiRequestsPerHour: z.number().int().nullable(),
});
export type PlanLimits = z.infer<typeof PlanLimits>;
export type PlanLimit = keyof PlanLimits;

/**
 * The limits the server enforces (ADR 032): the pricing page for free and professional (part 2,
 * section 9), starter one rung of the older table above free, the documented API rate limits. Free
 * has no api_access, so its bearer requests are refused before they are counted (ADR 026): 0.
 */
export const PLAN_LIMITS: Record<PlanId, PlanLimits> = {
  free: { domains: 5, inboxTestsPerMonth: 10, emailsPerMonth: 10_000, retentionDays: 30, apiRequestsPerHour: 0 },
  starter: {
    domains: 25,
    inboxTestsPerMonth: 100,
    emailsPerMonth: 100_000,
    retentionDays: 90,
    apiRequestsPerHour: 1_000,
  },
  professional: {
    domains: null,
    inboxTestsPerMonth: 1_000,
    emailsPerMonth: null,
    retentionDays: 365,
    apiRequestsPerHour: 10_000,
  },
  enterprise: {
    domains: null,
    inboxTestsPerMonth: null,
    emailsPerMonth: null,
    retentionDays: 365,
    apiRequestsPerHour: 100_000,
  },
};

/**
 * The plan an upgrade prompt names when `plan` reaches `limit`: the cheapest pricing-page plan above
 * it whose limit is higher (unlimited counts highest); undefined when none is.
 */
export function planLiftingLimit(plan: PlanId, limit: PlanLimit): PlanId | undefined {
  const current = PLAN_LIMITS[plan][limit];
  if (current === null) return undefined;
  return PRICING_PAGE_PLANS.find((id) => {
    const other = PLAN_LIMITS[id][limit];
    return PLAN_RANK[id] > PLAN_RANK[plan] && (other === null || other > current);
  });
}

/**
 * Pushed e-mail data of one source (an MTA, smtp2go, or api for InboxPulse's own event routes) refused
 * this UTC month because the plan's e-mails a month were used up (ADR 043).
 */
export const EmailRefusal = z.object({
  source: z.string(),
  /** Delivery events refused; a refused day's totals counts a request and no event. */
  events: z.number().int(),
  requests: z.number().int(),
  lastAt: z.string(),
});
export type EmailRefusal = z.infer<typeof EmailRefusal>;

/** GET /api/usage: the signed-in user's plan, its limits, this month's use and its flags. */
export const UsageResponse = z.object({
  plan: PlanId,
  limits: PlanLimits,
  usage: z.object({
    domains: z.number().int(),
    inboxTestsThisMonth: z.number().int(),
    emailsThisMonth: z.number().int(),
    alerts: z.number().int(),
  }),
  features: z.array(PlanFeature),
  /** What the e-mail allowance refused this month, by source (ADR 043). */
  refusedThisMonth: z.array(EmailRefusal).optional(),
});
export type UsageResponse = z.infer<typeof UsageResponse>;
