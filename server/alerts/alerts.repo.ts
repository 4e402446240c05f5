import { and, desc, eq, sql } from 'drizzle-orm';
import { Alert, type AlertHistoryEntry, type AlertSeverity, type AlertType } from '@contracts/alerts';
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
  return Alert.parse({
    ...row,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt?.toISOString() ?? null,
    resolvedAt: row.resolvedAt?.toISOString() ?? null,
    acknowledgedAt: row.acknowledgedAt?.toISOString() ?? null,
  });
}

/** A history line as jsonb, stamped by the database so it agrees with the row's own timestamps. */
export function historyEntry(event: AlertHistoryEntry['event'], message: string) {
  return sql`jsonb_build_array(jsonb_build_object('at', to_char(now() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'event', ${event}::text, 'message', ${message}::text))`;
}

/** The one way any capability raises an alert for a user; its history starts with the alert's own words. */
export async function createAlert(ex: Executor, alert: NewAlert): Promise<Alert> {
  const [row] = await ex
    .insert(alerts)
    .values({
      ...alert,
      domain: alert.domain ?? null,
      metadata: alert.metadata ?? null,
      history: historyEntry('raised', alert.message),
    })
    .returning();
  return toAlert(row);
}

export async function listAlerts(ex: Executor, userId: number, limit = 200): Promise<Alert[]> {
  const rows = await ex
    .select()
    .from(alerts)
    .where(eq(alerts.userId, userId))
    .orderBy(desc(alerts.createdAt), desc(alerts.id))
    .limit(limit);
  return rows.map(toAlert);
}

/** Scoped to the owner: another user's alert id behaves as if it did not exist. */
export async function findAlert(ex: Executor, userId: number, id: number): Promise<Alert | undefined> {
  const [row] = await ex
    .select()
    .from(alerts)
    .where(and(eq(alerts.id, id), eq(alerts.userId, userId)));
  return row && toAlert(row);
}

/** Marking an alert read twice writes its history line once: the CASE reads the row as it was. */
export async function markAlertRead(ex: Executor, userId: number, id: number): Promise<Alert | undefined> {
  const [row] = await ex
    .update(alerts)
    .set({
      isRead: true,
      history: sql`case when ${alerts.isRead} then ${alerts.history} else ${alerts.history} || ${historyEntry('read', 'Marked as read')} end`,
    })
    .where(and(eq(alerts.id, id), eq(alerts.userId, userId)))
    .returning();
  return row && toAlert(row);
}

/** Acknowledging reads the alert too; the first acknowledgement is the one kept (time and history line). */
export async function acknowledgeAlert(ex: Executor, userId: number, id: number): Promise<Alert | undefined> {
  const [row] = await ex
    .update(alerts)
    .set({
      isRead: true,
      acknowledgedAt: sql`coalesce(${alerts.acknowledgedAt}, now())`,
      history: sql`case when ${alerts.acknowledgedAt} is not null then ${alerts.history} else ${alerts.history} || ${historyEntry('acknowledged', 'Acknowledged')} end`,
    })
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
