import { and, desc, eq, inArray, or, sql } from 'drizzle-orm';
import type { Executor } from '../platform/db/client';
import { webhookDeliveries, webhooks } from '../platform/db/schema/webhooks';
import { users } from '../platform/db/schema/users';
import type { FairTable, InFlightLimit } from '../platform/queue/durable-delivery';

export type WebhookRow = typeof webhooks.$inferSelect;
export type WebhookDeliveryRow = typeof webhookDeliveries.$inferSelect;
export type WebhookAttemptRow = WebhookDeliveryRow['attempts'][number];

// Every query of a user's request names the owner: another user's webhook or delivery behaves as if
// it did not exist. The delivery job and event fan-out work by id.

export async function listUserWebhooks(ex: Executor, userId: number): Promise<WebhookRow[]> {
  return ex
    .select()
    .from(webhooks)
    .where(eq(webhooks.userId, userId))
    .orderBy(desc(webhooks.createdAt), desc(webhooks.id));
}

export async function findUserWebhook(ex: Executor, userId: number, id: number): Promise<WebhookRow | undefined> {
  const [row] = await ex
    .select()
    .from(webhooks)
    .where(and(eq(webhooks.id, id), eq(webhooks.userId, userId)));
  return row;
}

export async function findWebhook(ex: Executor, id: number): Promise<WebhookRow | undefined> {
  const [row] = await ex.select().from(webhooks).where(eq(webhooks.id, id));
  return row;
}

/**
 * The new webhook, or undefined when the account already has `limit`: counted under a per-user lock,
 * so two registrations at once cannot both pass it.
 */
export async function insertWebhookWithin(
  ex: Executor,
  values: typeof webhooks.$inferInsert,
  limit: number,
): Promise<WebhookRow | undefined> {
  return ex.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('webhooks'), ${values.userId})`);
    const [{ count }] = await tx
      .select({ count: sql<number>`count(*)::int` })
      .from(webhooks)
      .where(eq(webhooks.userId, values.userId));
    if (count >= limit) return undefined;
    const [row] = await tx.insert(webhooks).values(values).returning();
    return row;
  });
}

/** Whether the webhook was there to delete; its deliveries go with it. */
export async function deleteUserWebhook(ex: Executor, userId: number, id: number): Promise<boolean> {
  const rows = await ex
    .delete(webhooks)
    .where(and(eq(webhooks.id, id), eq(webhooks.userId, userId)))
    .returning({ id: webhooks.id });
  return rows.length > 0;
}

/** The user's webhooks subscribed to `eventType`. */
export async function listSubscribedWebhooks(ex: Executor, userId: number, eventType: string): Promise<WebhookRow[]> {
  return ex
    .select()
    .from(webhooks)
    .where(and(eq(webhooks.userId, userId), sql`${webhooks.events} @> ${JSON.stringify([eventType])}::jsonb`));
}

/**
 * Deliveries of one event (a fixed event id) to `values`' webhooks, made once: a second call with
 * the same event id adds none for a webhook that has one. Returns the event's deliveries nobody has
 * attempted yet (new or left by a run that died before queueing them), for the caller to queue.
 */
export async function insertDeliveriesOnce(
  ex: Executor,
  eventId: string,
  values: (typeof webhookDeliveries.$inferInsert)[],
): Promise<WebhookDeliveryRow[]> {
  return ex.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('webhook-event'), hashtext(${eventId}))`);
    const existing = await tx.select().from(webhookDeliveries).where(eq(webhookDeliveries.eventId, eventId));
    const have = new Set(existing.map((row) => row.webhookId));
    const added = await insertDeliveries(
      tx,
      values.filter((v) => !have.has(v.webhookId)),
    );
    return [...existing.filter((row) => row.status === 'pending' && row.attempts.length === 0), ...added];
  });
}

/** The webhook a source (Alert Settings) keeps for the user, if any. */
export async function findSourceWebhook(
  ex: Executor,
  userId: number,
  source: 'alert_settings',
): Promise<WebhookRow | undefined> {
  const [row] = await ex
    .select()
    .from(webhooks)
    .where(and(eq(webhooks.userId, userId), eq(webhooks.source, source)));
  return row;
}

export async function insertWebhook(ex: Executor, values: typeof webhooks.$inferInsert): Promise<WebhookRow> {
  const [row] = await ex.insert(webhooks).values(values).returning();
  return row;
}

export async function updateWebhook(
  ex: Executor,
  id: number,
  values: Partial<Pick<WebhookRow, 'url' | 'events' | 'description' | 'secretEncrypted'>>,
): Promise<void> {
  await ex.update(webhooks).set(values).where(eq(webhooks.id, id));
}

export async function deleteSourceWebhook(ex: Executor, userId: number, source: 'alert_settings'): Promise<boolean> {
  const rows = await ex
    .delete(webhooks)
    .where(and(eq(webhooks.userId, userId), eq(webhooks.source, source)))
    .returning({ id: webhooks.id });
  return rows.length > 0;
}

/** How many of the user's webhooks subscribe to any of `eventTypes`. */
export async function countSubscribedWebhooks(ex: Executor, userId: number, eventTypes: string[]): Promise<number> {
  if (eventTypes.length === 0) return 0;
  const [row] = await ex
    .select({ n: sql<number>`count(*)::int` })
    .from(webhooks)
    .where(
      and(
        eq(webhooks.userId, userId),
        or(...eventTypes.map((type) => sql`${webhooks.events} @> ${JSON.stringify([type])}::jsonb`)),
      ),
    );
  return row?.n ?? 0;
}

export async function insertDeliveries(
  ex: Executor,
  values: (typeof webhookDeliveries.$inferInsert)[],
): Promise<WebhookDeliveryRow[]> {
  if (values.length === 0) return [];
  return ex.insert(webhookDeliveries).values(values).returning();
}

export async function findDelivery(ex: Executor, id: number): Promise<WebhookDeliveryRow | undefined> {
  const [row] = await ex.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, id));
  return row;
}

export async function findUserDelivery(
  ex: Executor,
  userId: number,
  id: number,
): Promise<WebhookDeliveryRow | undefined> {
  const [row] = await ex
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.id, id), eq(webhookDeliveries.userId, userId)));
  return row;
}

export async function listLatestDeliveries(
  ex: Executor,
  webhookId: number,
  limit: number,
): Promise<WebhookDeliveryRow[]> {
  return ex
    .select()
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.webhookId, webhookId))
    .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
    .limit(limit);
}

/**
 * Appends attempt number `attemptsBefore + 1` with the status it leads to. Undefined when another run
 * recorded that attempt first (a job retried after its process died), so it is counted once.
 */
export async function recordAttempt(
  ex: Executor,
  id: number,
  attemptsBefore: number,
  attempt: WebhookAttemptRow,
  status: WebhookDeliveryRow['status'],
): Promise<WebhookDeliveryRow | undefined> {
  const [row] = await ex
    .update(webhookDeliveries)
    .set({
      attempts: sql`${webhookDeliveries.attempts} || ${JSON.stringify([attempt])}::jsonb`,
      status,
      deliveredAt: status === 'delivered' ? new Date(attempt.at) : null,
    })
    .where(
      and(eq(webhookDeliveries.id, id), sql`jsonb_array_length(${webhookDeliveries.attempts}) = ${attemptsBefore}`),
    )
    .returning();
  return row;
}

/**
 * Deliveries as durable delivery's sweep sees them (platform/queue/durable-delivery.ts): stranded when
 * their next attempt should have run `graceSeconds` ago and did not: never attempted (the process that
 * wrote them died before queueing them) or waiting for a retry whose job was lost. The retry wait is
 * the one attemptDelivery queues: retrySeconds x 4^(attempts - 1). The lease (`leased_until`) marks an
 * attempt in flight for the in-flight limits (ADR 051); an attempt is still recorded only if no other run
 * recorded that attempt first (recordAttempt). Alerts wake before bulk notifications; a paused endpoint's
 * deliveries wake only through its probe.
 */
export function webhookDeliveryItems(retrySeconds: number, graceSeconds: number): FairTable<typeof webhookDeliveries> {
  const attempts = sql`jsonb_array_length(${webhookDeliveries.attempts})`;
  return {
    table: webhookDeliveries,
    id: webhookDeliveries.id,
    account: webhookDeliveries.userId,
    createdAt: webhookDeliveries.createdAt,
    pending: inArray(webhookDeliveries.status, ['pending', 'retrying']),
    lockedUntil: webhookDeliveries.leasedUntil,
    waitingSince: webhookDeliveries.waitingSince,
    precedence: sql`(${webhookDeliveries.eventType} NOT LIKE 'alert.%')`,
    // A paused endpoint's deliveries wait for its probe (attemptDelivery), not for a free slot.
    wakeable: sql`NOT EXISTS (SELECT 1 FROM ${webhooks} WHERE ${webhooks.id} = ${webhookDeliveries.webhookId} AND ${webhooks.pausedUntil} IS NOT NULL)`,
    // A paused endpoint's deliveries have their job queued for the end of the pause: not stranded until then.
    stranded: sql`CASE WHEN ${attempts} = 0
        THEN ${webhookDeliveries.createdAt} + make_interval(secs => ${graceSeconds})
        ELSE (${webhookDeliveries.attempts}->-1->>'at')::timestamptz
          + make_interval(secs => ${retrySeconds} * power(4, ${attempts} - 1) + ${graceSeconds})
      END < now()
      AND NOT EXISTS (SELECT 1 FROM ${webhooks} WHERE ${webhooks.id} = ${webhookDeliveries.webhookId} AND ${webhooks.pausedUntil} > now())`,
  };
}

/** The in-flight limits of a delivery's attempt: at most `perAccount` of its account's and `perEndpoint` of its webhook's. */
export function deliveryLimits(perAccount: number, perEndpoint: number): InFlightLimit[] {
  return [
    { key: webhookDeliveries.userId, max: perAccount },
    { key: webhookDeliveries.webhookId, max: perEndpoint },
  ];
}

/** Scopes waiting deliveries to one webhook's (wakeWaiting). */
export function ofWebhook(webhookId: number) {
  return eq(webhookDeliveries.webhookId, webhookId);
}

/**
 * Counts a failed attempt against the webhook's endpoint: once `threshold` fail in a row it is paused
 * for `pauseSeconds`, doubled for each failed probe after it, at most `maxPauseSeconds`. Returns the
 * streak and the pause (null while below the threshold).
 */
export async function recordEndpointFailure(
  ex: Executor,
  webhookId: number,
  error: string,
  breaker: { threshold: number; pauseSeconds: number; maxPauseSeconds: number },
): Promise<{ streak: number; pausedUntil: Date | null } | undefined> {
  const streak = sql`${webhooks.failureStreak} + 1`;
  const [row] = await ex
    .update(webhooks)
    .set({
      failureStreak: streak,
      lastError: error,
      pausedUntil: sql`CASE WHEN ${streak} >= ${breaker.threshold}
        THEN now() + make_interval(secs => least(${breaker.pauseSeconds} * power(2, ${streak} - ${breaker.threshold}), ${breaker.maxPauseSeconds}))
        ELSE ${webhooks.pausedUntil} END`,
    })
    .where(eq(webhooks.id, webhookId))
    .returning({ streak: webhooks.failureStreak, pausedUntil: webhooks.pausedUntil });
  return row;
}

/** A delivered attempt: the endpoint answers, so its failure streak and any pause end. */
export async function closeEndpointBreaker(ex: Executor, webhookId: number): Promise<void> {
  await ex
    .update(webhooks)
    .set({ failureStreak: 0, pausedUntil: null, lastError: null })
    .where(and(eq(webhooks.id, webhookId), sql`${webhooks.failureStreak} > 0`));
}

/** Where to tell a webhook's owner about it. */
export async function findOwnerEmail(ex: Executor, userId: number): Promise<string | undefined> {
  const [row] = await ex.select({ email: users.email }).from(users).where(eq(users.id, userId));
  return row?.email;
}

/** The owner asked for an attempt (a test event, a redelivery): a paused endpoint is tried at once, by that attempt alone. */
export async function endPauseNow(ex: Executor, webhookId: number): Promise<void> {
  await ex
    .update(webhooks)
    .set({ pausedUntil: sql`now()` })
    .where(and(eq(webhooks.id, webhookId), sql`${webhooks.pausedUntil} > now()`));
}
