import { and, asc, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { Executor } from '../../platform/db/client';
import {
  alertDigests,
  alertNotifications,
  alertRules,
  alerts,
  alertSettings,
  users,
  type DigestItem,
} from '../../platform/db/schema/index';
import { claimItem, findStranded, type ClaimedTable } from '../../platform/queue/durable-delivery';

export type AlertToNotifyRow = Pick<
  typeof alerts.$inferSelect,
  | 'id'
  | 'type'
  | 'severity'
  | 'title'
  | 'message'
  | 'domain'
  | 'metadata'
  | 'createdAt'
  | 'updatedAt'
  | 'resolvedAt'
  | 'notifiedAt'
  | 'resolutionNotifiedAt'
>;
export type NotificationRow = typeof alertNotifications.$inferSelect;
export type NewNotificationRow = typeof alertNotifications.$inferInsert;
export type DigestRow = typeof alertDigests.$inferSelect;
export type NewDigestRow = typeof alertDigests.$inferInsert;
export type RuleChannels = { email: boolean; webhook: boolean; slack: boolean; sms: boolean };

const dueCondition = or(
  isNull(alerts.notifiedAt),
  and(sql`${alerts.resolvedAt} IS NOT NULL`, isNull(alerts.resolutionNotifiedAt)),
);

/**
 * The user's alerts with something to tell (raised or escalated and not taken yet, or resolved and
 * not told), locked to the end of the transaction. Rows another transaction holds (evaluation writing
 * them) are skipped: it queues delivery again after it commits, and the sweep looks every minute.
 */
export async function lockAlertsToNotify(ex: Executor, userId: number): Promise<AlertToNotifyRow[]> {
  return ex
    .select({
      id: alerts.id,
      type: alerts.type,
      severity: alerts.severity,
      title: alerts.title,
      message: alerts.message,
      domain: alerts.domain,
      metadata: alerts.metadata,
      createdAt: alerts.createdAt,
      updatedAt: alerts.updatedAt,
      resolvedAt: alerts.resolvedAt,
      notifiedAt: alerts.notifiedAt,
      resolutionNotifiedAt: alerts.resolutionNotifiedAt,
    })
    .from(alerts)
    .where(and(eq(alerts.userId, userId), dueCondition))
    .orderBy(asc(alerts.id))
    .for('update', { skipLocked: true });
}

/** Which of these alerts were announced before (raised or escalated): a new announcement of them is an escalation. */
export async function alertsAnnouncedBefore(ex: Executor, alertIds: number[]): Promise<Set<number>> {
  if (alertIds.length === 0) return new Set();
  const rows = await ex
    .selectDistinct({ alertId: alertNotifications.alertId })
    .from(alertNotifications)
    .where(
      and(inArray(alertNotifications.alertId, alertIds), inArray(alertNotifications.event, ['raised', 'escalated'])),
    );
  return new Set(rows.map((r) => r.alertId));
}

export async function markAlertsTaken(ex: Executor, alertIds: number[], now: Date): Promise<void> {
  if (alertIds.length === 0) return;
  await ex
    .update(alerts)
    .set({
      notifiedAt: sql`coalesce(${alerts.notifiedAt}, ${now})`,
      resolutionNotifiedAt: sql`case when ${alerts.resolvedAt} is not null then coalesce(${alerts.resolutionNotifiedAt}, ${now}) else ${alerts.resolutionNotifiedAt} end`,
    })
    .where(inArray(alerts.id, alertIds));
}

export async function insertNotifications(ex: Executor, rows: NewNotificationRow[]): Promise<NotificationRow[]> {
  if (rows.length === 0) return [];
  return ex.insert(alertNotifications).values(rows).returning();
}

/** The user's notifications no message has taken yet, oldest first, locked to the end of the transaction. */
export async function lockPendingNotifications(ex: Executor, userId: number): Promise<NotificationRow[]> {
  return ex
    .select()
    .from(alertNotifications)
    .where(and(eq(alertNotifications.userId, userId), isNull(alertNotifications.claimedAt)))
    .orderBy(asc(alertNotifications.occurredAt), asc(alertNotifications.id))
    .for('update', { skipLocked: true });
}

export async function markNotificationsClaimed(ex: Executor, ids: number[], now: Date): Promise<void> {
  if (ids.length === 0) return;
  await ex.update(alertNotifications).set({ claimedAt: now }).where(inArray(alertNotifications.id, ids));
}

/** The channels of the user's rules among `ruleIds` (a deleted rule is absent: its alerts go by the settings alone). */
export async function ruleChannels(
  ex: Executor,
  userId: number,
  ruleIds: number[],
): Promise<Map<number, RuleChannels>> {
  if (ruleIds.length === 0) return new Map();
  const rows = await ex
    .select({ id: alertRules.id, notifications: alertRules.notifications })
    .from(alertRules)
    .where(and(eq(alertRules.userId, userId), inArray(alertRules.id, ruleIds)));
  return new Map(rows.map((r) => [r.id, r.notifications]));
}

/** What a sender needs of the user: where mail goes and the plan the channels are checked against. */
export async function findRecipient(
  ex: Executor,
  userId: number,
): Promise<{ email: string; subscriptionPlan: string } | undefined> {
  const [row] = await ex
    .select({ email: users.email, subscriptionPlan: users.subscriptionPlan })
    .from(users)
    .where(eq(users.id, userId));
  return row;
}

export async function insertDigests(ex: Executor, rows: NewDigestRow[]): Promise<DigestRow[]> {
  if (rows.length === 0) return [];
  return ex.insert(alertDigests).values(rows).returning();
}

export async function findDigest(ex: Executor, id: number): Promise<DigestRow | undefined> {
  const [row] = await ex.select().from(alertDigests).where(eq(alertDigests.id, id));
  return row;
}

/**
 * Alert messages as durable delivery sees them (platform/queue/durable-delivery.ts): leased while a
 * sender holds one, and after a failed attempt held until its retry is due.
 */
export const digestItems: ClaimedTable<typeof alertDigests> = {
  table: alertDigests,
  id: alertDigests.id,
  account: alertDigests.userId,
  createdAt: alertDigests.createdAt,
  pending: eq(alertDigests.status, 'pending'),
  // Its job was lost (a process died) or its retry time has come.
  stranded: lt(alertDigests.createdAt, sql`now() - interval '1 minute'`),
  lockedUntil: alertDigests.lockedUntil,
  attempts: alertDigests.attempts,
  gaveUp: (lastError) => ({ status: 'failed', lastError }),
  retrying: (lastError) => ({ lastError }),
};

/**
 * Leases a pending message nobody holds (or whose holder's lease ran out) for `leaseSeconds`, counting
 * the attempt; undefined when it is done or held by another sender.
 */
export async function leaseDigest(ex: Executor, id: number, leaseSeconds: number): Promise<DigestRow | undefined> {
  return claimItem(ex, digestItems, id, leaseSeconds);
}

/** The message's row locked to the end of the transaction, while it is still pending. */
export async function lockPendingDigest(ex: Executor, id: number): Promise<DigestRow | undefined> {
  const [row] = await ex
    .select()
    .from(alertDigests)
    .where(and(eq(alertDigests.id, id), eq(alertDigests.status, 'pending')))
    .for('update');
  return row;
}

export async function finishDigest(
  ex: Executor,
  id: number,
  outcome: { status: 'sent' | 'failed' | 'skipped'; lastError?: string | null; outboxId?: number | null },
): Promise<void> {
  await ex
    .update(alertDigests)
    .set({
      status: outcome.status,
      lastError: outcome.lastError ?? null,
      lockedUntil: null,
      ...(outcome.outboxId !== undefined ? { outboxId: outcome.outboxId } : {}),
      ...(outcome.status === 'sent' ? { sentAt: sql`now()` } : {}),
    })
    .where(eq(alertDigests.id, id));
}

/** Users whose alerts have something not yet taken into the queue. */
export async function usersWithAlertsToNotify(ex: Executor, limit: number): Promise<number[]> {
  const rows = await ex.selectDistinct({ userId: alerts.userId }).from(alerts).where(dueCondition).limit(limit);
  return rows.map((r) => r.userId);
}

/** Per user with pending notifications: the oldest one, and the oldest critical one (what quiet hours let through). */
export async function pendingNotificationSummary(
  ex: Executor,
  limit: number,
): Promise<
  {
    userId: number;
    oldest: Date;
    oldestCritical: Date | null;
    frequency: string | null;
    quietHours: { start: string; end: string; timeZone: string } | null;
  }[]
> {
  const rows = await ex
    .select({
      userId: alertNotifications.userId,
      oldest: sql<string>`min(${alertNotifications.occurredAt})`,
      oldestCritical: sql<
        string | null
      >`min(${alertNotifications.occurredAt}) filter (where ${alertNotifications.severity} = 'critical' and ${alertNotifications.event} <> 'resolved')`,
      frequency: sql<string | null>`max(${alertSettings.frequency})`,
      quietHours: sql<{
        start: string;
        end: string;
        timeZone: string;
      } | null>`(array_agg(${alertSettings.quietHours}))[1]`,
    })
    .from(alertNotifications)
    .leftJoin(alertSettings, eq(alertSettings.userId, alertNotifications.userId))
    .where(isNull(alertNotifications.claimedAt))
    .groupBy(alertNotifications.userId)
    .limit(limit);
  return rows.map((r) => ({
    userId: r.userId,
    oldest: new Date(r.oldest),
    oldestCritical: r.oldestCritical ? new Date(r.oldestCritical) : null,
    frequency: r.frequency,
    quietHours: r.quietHours,
  }));
}

/** Pending messages nobody is sending, oldest first, at most `perAccount` of one user's. */
export async function findStrandedDigests(ex: Executor, limit: number, perAccount: number): Promise<number[]> {
  return findStranded(ex, digestItems, { limit, perAccount });
}

/** Notifications and messages older than 30 days are forgotten once done with. */
export async function purgeOldDelivery(ex: Executor): Promise<void> {
  await ex
    .delete(alertDigests)
    .where(and(sql`${alertDigests.status} <> 'pending'`, lt(alertDigests.createdAt, sql`now() - interval '30 days'`)));
  await ex
    .delete(alertNotifications)
    .where(
      and(
        sql`${alertNotifications.claimedAt} IS NOT NULL`,
        lt(alertNotifications.createdAt, sql`now() - interval '30 days'`),
      ),
    );
}

export type { DigestItem };
