import type { UsageResponse } from '@contracts/plans';
import type { Executor } from '../platform/db/client';
import type { UserRow } from '../platform/db/schema/index';
import { featuresOf, limitsOf, monthlyCounterKey, planOf } from './plan-gate.service';
import { planUsageCounts } from '../insights/plan-usage';
import { listEmailRefusals, readMonthly } from './plan-usage.repo';

/**
 * GET /api/usage: the user's plan, what it allows and what they use of it, counted as the gates
 * count (ADR 032): domains they have, inbox tests started this UTC month (a deleted test still
 * counts), e-mails sent this UTC month as the dashboard sums them, and their alerts.
 */
export async function usageOf(ex: Executor, user: Pick<UserRow, 'id' | 'subscriptionPlan'>): Promise<UsageResponse> {
  const [counts, inboxTestsThisMonth, refused] = await Promise.all([
    planUsageCounts(ex, user.id),
    readMonthly(ex, monthlyCounterKey('inboxTestsPerMonth', user.id)),
    listEmailRefusals(ex, user.id),
  ]);
  const { domains, emailsThisMonth, alerts } = counts;
  return {
    plan: planOf(user),
    limits: limitsOf(user),
    usage: { domains, inboxTestsThisMonth, emailsThisMonth, alerts },
    features: featuresOf(user),
    refusedThisMonth: refused.map((r) => ({ ...r, lastAt: r.lastAt.toISOString() })),
  };
}
