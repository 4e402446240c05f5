import { z } from 'zod';

/** Plan ids the server stores on a user. Ranking decides upgrade vs downgrade (part 1, section 4). */
export const PLAN_IDS = ['free', 'professional'] as const;
export const PlanId = z.enum(PLAN_IDS);
export type PlanId = z.infer<typeof PlanId>;

export const PLAN_RANK: Record<PlanId, number> = { free: 0, professional: 1 };

export const PLAN_LABELS: Record<PlanId, string> = {
  free: 'Free Plan',
  professional: 'Professional Plan',
};

/** Feature flags gated by plan (part 1, section 3); every one needs professional (section 6). */
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
export type PlanFeature = (typeof PLAN_FEATURES)[number];

export function planHasFeature(plan: PlanId, _feature: PlanFeature): boolean {
  return PLAN_RANK[plan] >= PLAN_RANK.professional;
}
