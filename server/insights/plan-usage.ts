import { count, eq } from 'drizzle-orm';
import type { Executor } from '../platform/db/client';
import { alerts, domains } from '../platform/db/schema/index';
import { emailsThisMonth } from './email-metric-days';

/** What the user uses of their plan in other capabilities' tables (GET /api/usage, plans/usage.service.ts). */
export interface PlanUsageCounts {
  domains: number;
  emailsThisMonth: number;
  /** Read and unread, open and resolved, as the Alerts page lists them. */
  alerts: number;
}

export async function planUsageCounts(ex: Executor, userId: number): Promise<PlanUsageCounts> {
  const [[domainRows], emails, [alertRows]] = await Promise.all([
    ex.select({ n: count() }).from(domains).where(eq(domains.userId, userId)),
    emailsThisMonth(ex, userId),
    ex.select({ n: count() }).from(alerts).where(eq(alerts.userId, userId)),
  ]);
  return { domains: domainRows?.n ?? 0, emailsThisMonth: emails, alerts: alertRows?.n ?? 0 };
}
