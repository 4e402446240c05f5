import { and, desc, eq } from 'drizzle-orm';
import { Alert, type AlertSeverity, type AlertType } from '@contracts/alerts';
import type { Executor } from '../platform/db/client';
import { alerts } from '../platform/db/schema/index';

export interface NewAlert {
  userId: number;
  type: AlertType;
  severity: AlertSeverity;
  title: string;
  message: string;
  domain?: string | null;
  metadata?: Record<string, unknown> | null;
}

type AlertRow = typeof alerts.$inferSelect;

function toAlert(row: AlertRow): Alert {
  return Alert.parse({ ...row, createdAt: row.createdAt.toISOString() });
}

/** The one way any capability raises an alert for a user. */
export async function createAlert(ex: Executor, alert: NewAlert): Promise<Alert> {
  const [row] = await ex
    .insert(alerts)
    .values({ ...alert, domain: alert.domain ?? null, metadata: alert.metadata ?? null })
    .returning();
  return toAlert(row);
}

export async function listAlerts(ex: Executor, userId: number, limit = 200): Promise<Alert[]> {
  const rows = await ex.select().from(alerts).where(eq(alerts.userId, userId)).orderBy(desc(alerts.createdAt), desc(alerts.id)).limit(limit);
  return rows.map(toAlert);
}

/** Scoped to the owner: another user's alert id behaves as if it did not exist. */
export async function markAlertRead(ex: Executor, userId: number, id: number): Promise<Alert | undefined> {
  const [row] = await ex
    .update(alerts)
    .set({ isRead: true })
    .where(and(eq(alerts.id, id), eq(alerts.userId, userId)))
    .returning();
  return row && toAlert(row);
}

export async function deleteAlert(ex: Executor, userId: number, id: number): Promise<boolean> {
  const rows = await ex
    .delete(alerts)
    .where(and(eq(alerts.id, id), eq(alerts.userId, userId)))
    .returning({ id: alerts.id });
  return rows.length > 0;
}
