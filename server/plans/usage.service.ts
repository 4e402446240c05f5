import type { UsageResponse } from '@contracts/plans';
import { countAlerts } from '../alerts/alerts.service';
import { countUserDomains } from '../domains/domains.service';
import type { Executor } from '../platform/db/client';
import type { UserRow } from '../platform/db/schema/index';
import { featuresOf, limitsOf, monthlyCounterKey, planOf } from './plan-gate.service';
import { emailsThisMonth } from '../insights/email-metric-days';
import { listEmailRefusals, readMonthly } from './plan-usage.repo';

/**
 * GET /api/usage: the user's plan, what it allows and what they use of it, counted as the gates
 * count (ADR 032): domains they have, inbox tests started this UTC month (a deleted test still
 * counts), e-mails sent this UTC month as the dashboard sums them, and their alerts.
 */
export async function usageOf(ex: Executor, user: Pick<UserRow, 'id' | 'subscriptionPlan'>): Promise<UsageResponse> {
  const [domains, inboxTestsThisMonth, emails, alerts, refused] = await Promise.all([
    countUserDomains(ex, user.id),
    readMonthly(ex, monthlyCounterKey('inboxTestsPerMonth', user.id)),
    emailsThisMonth(ex, user.id),
    countAlerts(ex, user.id),
    listEmailRefusals(ex, user.id),
  ]);
  return {
    plan: planOf(user),
    limits: limitsOf(user),
    usage: { domains, inboxTestsThisMonth, emailsThisMonth: emails, alerts },
    features: featuresOf(user),
    refusedThisMonth: refused.map((r) => ({ ...r, lastAt: r.lastAt.toISOString() })),
  };
}
