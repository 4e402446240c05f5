import { z } from 'zod';

/**
 * GET /api/dashboard/overview. Scores are 0-100; rates are percent strings with two decimals
 * (part 1, section 3). A field is null when the user has no data it can be computed from; the
 * screen then says 'No Data'. Formulas: docs/dashboard-formulas.md.
 */
export const DashboardOverview = z.object({
  healthScore: z.number().nullable(),
  domainReputation: z.number().nullable(),
  ipReputation: z.number().nullable(),
  authenticationScore: z.number().nullable(),
  inboxRate: z.string().nullable(),
  bounceRate: z.string().nullable(),
  complaintRate: z.string().nullable(),
  isEmpty: z.boolean(),
  counts: z.object({
    domains: z.number().int(),
    inboxTests: z.number().int(),
    activeIntegrations: z.number().int(),
  }),
});
export type DashboardOverview = z.infer<typeof DashboardOverview>;

export const TREND_PERIODS = [7, 30, 90] as const;
export const TrendsQuery = z.object({
  days: z.coerce
    .number({ error: 'days must be 7, 30 or 90' })
    .refine((d) => (TREND_PERIODS as readonly number[]).includes(d), 'days must be 7, 30 or 90')
    .default(30),
});

const Series = z.array(z.object({ date: z.string(), value: z.number() }));

/**
 * GET /api/dashboard/trends?days=7|30|90 (plans with advanced_analytics; others get 403).
 * One point per UTC day that has data: inbox rate of tests completed that day, and delivery,
 * bounce and complaint rates of that day's email metrics, all in percent.
 */
export const DashboardTrends = z.object({
  days: z.number().int(),
  inboxRate: Series,
  deliveryRate: Series,
  bounceRate: Series,
  complaintRate: Series,
});
export type DashboardTrends = z.infer<typeof DashboardTrends>;
