import { and, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../platform/db/client';
import { alertRules, alertSettings } from '../../platform/db/schema/index';

// The alerts' own reads for the evaluation; what it reads of other capabilities is server/insights/alert-figures.ts.

export interface ThresholdSettings {
  inboxThreshold: number;
  bounceThreshold: number;
  spamThreshold: number;
  reputationThreshold: number;
}

export async function findThresholds(ex: Executor, userId: number): Promise<ThresholdSettings | undefined> {
  const [row] = await ex
    .select({
      inboxThreshold: alertSettings.inboxThreshold,
      bounceThreshold: alertSettings.bounceThreshold,
      spamThreshold: alertSettings.spamThreshold,
      reputationThreshold: alertSettings.reputationThreshold,
    })
    .from(alertSettings)
    .where(eq(alertSettings.userId, userId));
  return row;
}

export type RuleRow = typeof alertRules.$inferSelect;

export async function listEnabledRules(ex: Executor, userId: number): Promise<RuleRow[]> {
  return ex
    .select()
    .from(alertRules)
    .where(and(eq(alertRules.userId, userId), eq(alertRules.enabled, true)))
    .orderBy(alertRules.id);
}

/** Per-user lock of one evaluation's writes: two evaluations at once write one after the other. */
export async function lockUserEvaluation(ex: Executor, userId: number): Promise<void> {
  await ex.execute(sql`select pg_advisory_xact_lock(hashtext('alert-evaluation'), ${userId})`);
}
