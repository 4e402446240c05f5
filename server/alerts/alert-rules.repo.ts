import { and, desc, eq, sql } from 'drizzle-orm';
import type { Executor } from '../platform/db/client';
import { alertRules } from '../platform/db/schema/index';

export type AlertRuleRow = typeof alertRules.$inferSelect;
export type NewAlertRuleRow = Omit<typeof alertRules.$inferInsert, 'id' | 'createdAt'>;

/** Newest first. */
export async function listUserAlertRules(ex: Executor, userId: number): Promise<AlertRuleRow[]> {
  return ex
    .select()
    .from(alertRules)
    .where(eq(alertRules.userId, userId))
    .orderBy(desc(alertRules.createdAt), desc(alertRules.id));
}

/** How many rules the user keeps, counted under a per-user lock held to the end of the transaction (two creates at once count one after the other). */
export async function countUserAlertRulesLocked(ex: Executor, userId: number): Promise<number> {
  await ex.execute(sql`select pg_advisory_xact_lock(hashtext('alert-rules'), ${userId})`);
  const [row] = await ex
    .select({ n: sql<number>`count(*)::int` })
    .from(alertRules)
    .where(eq(alertRules.userId, userId));
  return row?.n ?? 0;
}

export async function insertAlertRule(ex: Executor, rule: NewAlertRuleRow): Promise<AlertRuleRow> {
  const [row] = await ex.insert(alertRules).values(rule).returning();
  return row;
}

/** Whether the rule was there to delete (another user's is not). */
export async function deleteUserAlertRule(ex: Executor, userId: number, id: number): Promise<boolean> {
  const rows = await ex
    .delete(alertRules)
    .where(and(eq(alertRules.id, id), eq(alertRules.userId, userId)))
    .returning({ id: alertRules.id });
  return rows.length > 0;
}
