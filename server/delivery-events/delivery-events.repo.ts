import { and, desc, eq, gte, inArray, sql } from 'drizzle-orm';
import type { DeliveryEventType, EventSource } from '@contracts/delivery-events';
import type { Executor } from '../platform/db/client';
import { latestOutcome } from '../insights/delivery-outcomes';
import { deliveryEvents, emailMetrics } from '../platform/db/schema/index';

// The writer of delivery_events and email_metrics (a day's sending figures: the rows events make, and a source's own
// figures). Reads across capabilities, such as the alert evaluation's, are in server/insights/.

export type DeliveryEventRow = typeof deliveryEvents.$inferSelect;

export interface NewEvent {
  messageId: string;
  recipient: string;
  eventType: DeliveryEventType;
  bounceClass: 'hard' | 'soft' | null;
  enhancedStatus: string | null;
  smtpResponse: string | null;
  domain: string | null;
  recipientDomain: string;
  mailboxProvider: string;
  sendingIp: string;
  occurredAt: Date;
}

export interface InsertedEvent {
  messageId: string;
  recipient: string;
  eventType: DeliveryEventType;
}

/** Account deletion: delivery_events has no foreign key to cascade from users (schema/delivery-events.ts). */
export async function deleteUserEvents(tx: Executor, userId: number): Promise<void> {
  await tx.delete(deliveryEvents).where(eq(deliveryEvents.userId, userId));
}

export interface StoredEvents {
  /** How many of the events were new (stored now). */
  count: number;
  /** Which ones, when asked for (to send webhooks about them); otherwise empty. */
  keys: InsertedEvent[];
}

/**
 * What one move adds to a figure: +1 for the outcome it adds, -1 for the one it takes back. A bounce not said to be
 * soft counts as hard, as everywhere else.
 */
function outcomeDelta(type: 'delivered' | 'bounced', bounceClass?: 'hard' | 'soft') {
  const is = (typeColumn: string, classColumn: string) => {
    const t = sql`${sql.raw(typeColumn)} IS NOT DISTINCT FROM ${type}`;
    if (!bounceClass) return t;
    const soft = sql`${sql.raw(classColumn)} IS NOT DISTINCT FROM 'soft'`;
    return bounceClass === 'soft' ? sql`(${t} AND ${soft})` : sql`(${t} AND NOT ${soft})`;
  };
  return sql`(${is('add_type', 'add_class')})::int - (${is('back_type', 'back_class')})::int`;
}

/**
 * Stores the events no earlier batch stored and adds those to the day rows of email_metrics, in one
 * statement: the new rows are counted by the database (per day, mailbox provider and sending IP)
 * straight from what the insert returns, so a batch costs one round trip and no row travels back
 * unless `returnKeys` asks for the new events' keys. Each (user, message id, recipient, type) is
 * stored once, so an event sent again adds nothing.
 *
 * What each new event adds: a delivery or a bounce is a message sent (its outcome is known), once per
 * message and recipient: an outcome that follows one stored before (a bounce after the delivery) takes
 * the earlier outcome back and adds its own, on the day, mailbox provider, IP and source where the
 * message was counted, and sends nothing; an outcome older than the one stored changes nothing (ADR 053).
 * A deferral counts as deferred only (the message is still on its way), a complaint as a complaint (its
 * delivery was counted when it was delivered). Days are UTC days.
 *
 * What the foreign key's check did for every row is done once for the batch: the user row is locked
 * against deletion until the statement's transaction ends, and a user deleted meanwhile gets nothing.
 * The day rows are written in key order, so two batches of one user take their locks in one order.
 */
export async function storeNewEvents(
  ex: Executor,
  userId: number,
  source: EventSource,
  events: readonly NewEvent[],
  options: { returnKeys: boolean },
): Promise<StoredEvents> {
  if (events.length === 0) return { count: 0, keys: [] };
  const col = <K extends keyof NewEvent>(key: K) => sql.param(events.map((e) => e[key]));
  const answer = options.returnKeys
    ? sql`SELECT message_id, recipient, event_type FROM ins`
    : sql`SELECT count(*)::int AS n FROM ins`;
  const result = await ex.execute<
    { n: number } | { message_id: string; recipient: string; event_type: DeliveryEventType }
  >(sql`
    WITH owner AS (SELECT id FROM users WHERE id = ${userId} FOR KEY SHARE),
    ins AS (
      INSERT INTO ${deliveryEvents} (user_id, source, message_id, recipient, event_type, bounce_class, enhanced_status, smtp_response,
        domain, recipient_domain, mailbox_provider, sending_ip, occurred_at)
      SELECT owner.id, ${source}::text, t.* FROM owner, unnest(
        ${col('messageId')}::text[], ${col('recipient')}::text[], ${col('eventType')}::text[], ${col('bounceClass')}::text[],
        ${col('enhancedStatus')}::text[], ${col('smtpResponse')}::text[], ${col('domain')}::text[], ${col('recipientDomain')}::text[],
        ${col('mailboxProvider')}::text[], ${col('sendingIp')}::text[], ${sql.param(events.map((e) => e.occurredAt.toISOString()))}::timestamptz[]
      ) AS t
      ON CONFLICT (user_id, message_id, recipient, event_type) DO NOTHING
      RETURNING message_id, recipient, event_type, bounce_class, occurred_at, mailbox_provider, sending_ip
    ),
    -- A message's outcome (delivered or bounced) is counted once, where its first outcome was: a later outcome of
    -- the same message and recipient (a bounce after the delivery) moves it there, an earlier one arriving late
    -- changes nothing (ADR 053). The other outcome stored before is looked up; both may also be in this batch.
    outcome AS (
      SELECT i.*, p.source AS p_source, p.event_type AS p_type, p.bounce_class AS p_class, p.occurred_at AS p_at,
        p.mailbox_provider AS p_provider, p.sending_ip AS p_ip,
        row_number() OVER pair AS nth,
        last_value(i.event_type) OVER whole_pair AS last_type,
        last_value(i.bounce_class) OVER whole_pair AS last_class
      FROM ins i
      LEFT JOIN ${deliveryEvents} p ON p.user_id = ${userId} AND p.message_id = i.message_id AND p.recipient = i.recipient
        AND p.event_type = CASE i.event_type WHEN 'delivered' THEN 'bounced' ELSE 'delivered' END
      WHERE i.event_type IN ('delivered', 'bounced')
      WINDOW pair AS (PARTITION BY i.message_id, i.recipient ORDER BY i.occurred_at, i.event_type = 'bounced'),
        whole_pair AS (pair ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING)
    ),
    move AS (
      -- A message counted for the first time: sent, with the latest outcome the batch has for it.
      SELECT ${source}::text AS provider, occurred_at AS at, mailbox_provider, sending_ip, 1 AS sent,
        last_type AS add_type, last_class AS add_class, NULL::text AS back_type, NULL::text AS back_class
      FROM outcome WHERE p_type IS NULL AND nth = 1
      UNION ALL
      -- A later outcome of a message counted before: the earlier outcome is taken back where it was counted.
      SELECT p_source, p_at, p_provider, p_ip, 0, event_type, bounce_class, p_type, p_class
      FROM outcome WHERE p_type IS NOT NULL AND (occurred_at, event_type = 'bounced') > (p_at, p_type = 'bounced')
    ),
    day AS (
      SELECT provider, (at AT TIME ZONE 'UTC')::date AS date, mailbox_provider, sending_ip,
        sum(sent)::int AS emails_sent,
        sum(${outcomeDelta('delivered')})::int AS delivered,
        sum(${outcomeDelta('bounced')})::int AS bounced,
        sum(${outcomeDelta('bounced', 'hard')})::int AS hard_bounces,
        sum(${outcomeDelta('bounced', 'soft')})::int AS soft_bounces,
        0 AS deferred, 0 AS complaints
      FROM move GROUP BY 1, 2, 3, 4
      UNION ALL
      SELECT ${source}::text, (occurred_at AT TIME ZONE 'UTC')::date, mailbox_provider, sending_ip, 0, 0, 0, 0, 0,
        count(*) FILTER (WHERE event_type = 'deferred')::int,
        count(*) FILTER (WHERE event_type = 'complaint')::int
      FROM ins WHERE event_type IN ('deferred', 'complaint') GROUP BY 1, 2, 3, 4
    ),
    day_sum AS (
      SELECT provider, date, mailbox_provider, sending_ip, sum(emails_sent)::int AS emails_sent, sum(delivered)::int AS delivered,
        sum(bounced)::int AS bounced, sum(hard_bounces)::int AS hard_bounces, sum(soft_bounces)::int AS soft_bounces,
        sum(deferred)::int AS deferred, sum(complaints)::int AS complaints
      FROM day GROUP BY 1, 2, 3, 4
    ),
    counted AS (
      INSERT INTO ${emailMetrics} AS m (user_id, provider, date, mailbox_provider, sending_ip, emails_sent, delivered, bounced,
        hard_bounces, soft_bounces, deferred, complaints)
      SELECT ${userId}::int, day_sum.* FROM day_sum ORDER BY provider, date, mailbox_provider, sending_ip
      ON CONFLICT (user_id, provider, date, mailbox_provider, sending_ip) DO UPDATE SET
        emails_sent = m.emails_sent + excluded.emails_sent,
        delivered = m.delivered + excluded.delivered,
        bounced = m.bounced + excluded.bounced,
        hard_bounces = m.hard_bounces + excluded.hard_bounces,
        soft_bounces = m.soft_bounces + excluded.soft_bounces,
        deferred = m.deferred + excluded.deferred,
        complaints = m.complaints + excluded.complaints
    )
    ${answer}`);
  if (!options.returnKeys) return { count: (result.rows[0] as { n: number }).n, keys: [] };
  const keys = (result.rows as { message_id: string; recipient: string; event_type: DeliveryEventType }[]).map((r) => ({
    messageId: r.message_id,
    recipient: r.recipient,
    eventType: r.event_type,
  }));
  return { count: keys.length, keys };
}

/** Sets a day's totals of a source without events (POST /api/v1/metrics): kept under no mailbox provider and no IP. */
export async function setDailyTotals(
  ex: Executor,
  userId: number,
  provider: string,
  date: string,
  totals: DayFigures,
): Promise<typeof emailMetrics.$inferSelect> {
  const [row] = await writeOwnDayFigures(ex, userId, provider, [{ date, ...totals }]);
  return row;
}

/** The user's latest events, newest first. */
export async function listLatestEvents(
  ex: Executor,
  userId: number,
  options: { limit: number; eventType?: DeliveryEventType; source?: EventSource },
): Promise<DeliveryEventRow[]> {
  const where = [eq(deliveryEvents.userId, userId)];
  if (options.eventType) where.push(eq(deliveryEvents.eventType, options.eventType));
  if (options.source) where.push(eq(deliveryEvents.source, options.source));
  return ex
    .select()
    .from(deliveryEvents)
    .where(and(...where))
    .orderBy(desc(deliveryEvents.occurredAt), desc(deliveryEvents.id))
    .limit(options.limit);
}

export interface EventCounts {
  delivered: number;
  bounced: number;
  hardBounces: number;
  softBounces: number;
  deferred: number;
  complaints: number;
}

const counts = {
  delivered: sql<number>`count(*) filter (where ${latestOutcome('delivered')})::int`,
  bounced: sql<number>`count(*) filter (where ${latestOutcome('bounced')})::int`,
  hardBounces: sql<number>`count(*) filter (where ${latestOutcome('bounced')} and ${deliveryEvents.bounceClass} = 'hard')::int`,
  softBounces: sql<number>`count(*) filter (where ${latestOutcome('bounced')} and ${deliveryEvents.bounceClass} = 'soft')::int`,
  deferred: sql<number>`count(*) filter (where ${deliveryEvents.eventType} = 'deferred')::int`,
  complaints: sql<number>`count(*) filter (where ${deliveryEvents.eventType} = 'complaint')::int`,
};

/** Event counts from `since`, of one sending domain (and its subdomains) or one source when given. */
export async function countEvents(
  ex: Executor,
  userId: number,
  since: Date,
  filter: { domain?: string; source?: EventSource } = {},
): Promise<EventCounts> {
  const where = [eq(deliveryEvents.userId, userId), gte(deliveryEvents.occurredAt, since)];
  // The domain or a subdomain of it: envelope senders are often a bounce subdomain (bounce.example.com).
  if (filter.domain)
    where.push(
      sql`(${deliveryEvents.domain} = ${filter.domain} or right(${deliveryEvents.domain}, ${filter.domain.length + 1}) = ${`.${filter.domain}`})`,
    );
  if (filter.source) where.push(eq(deliveryEvents.source, filter.source));
  const [row] = await ex
    .select(counts)
    .from(deliveryEvents)
    .where(and(...where));
  return row;
}

/** When the user's latest event of a source happened; null when none has. */
export async function lastEventAt(ex: Executor, userId: number, source: EventSource): Promise<Date | null> {
  const [row] = await ex
    .select({ at: sql<Date | null>`max(${deliveryEvents.occurredAt})` })
    .from(deliveryEvents)
    .where(and(eq(deliveryEvents.userId, userId), eq(deliveryEvents.source, source)));
  return row.at ? new Date(row.at) : null;
}

/** Event counts from `since` per mailbox provider, most events first. */
export async function countEventsByMailboxProvider(
  ex: Executor,
  userId: number,
  since: Date,
  source: EventSource,
): Promise<(EventCounts & { mailboxProvider: string })[]> {
  return ex
    .select({ mailboxProvider: deliveryEvents.mailboxProvider, ...counts })
    .from(deliveryEvents)
    .where(
      and(eq(deliveryEvents.userId, userId), gte(deliveryEvents.occurredAt, since), eq(deliveryEvents.source, source)),
    )
    .groupBy(deliveryEvents.mailboxProvider)
    .orderBy(sql`count(*) desc`, deliveryEvents.mailboxProvider);
}

export interface FailureGroup {
  eventType: 'bounced' | 'deferred';
  enhancedStatus: string | null;
  /** The answer with what differs per message (addresses, ids) taken out: failures alike are one group. */
  response: string | null;
  mailboxProvider: string;
  sendingIp: string;
  domain: string | null;
  count: number;
}

/**
 * The bounces and deferrals from `since`, grouped by what their cause depends on. Addresses and
 * tokens mixing letters and digits (queue ids, Gmail's trace ids) are taken out of the answer first,
 * so a thousand "550 5.1.1 <x@y>: User unknown" are one group; IP addresses stay (a blocklist names
 * them). At most `limit` groups, the largest; the rest are counted by countFailures.
 */
export async function listFailureGroups(
  ex: Executor,
  userId: number,
  since: Date,
  limit: number,
  source?: EventSource,
): Promise<FailureGroup[]> {
  const response = sql<
    string | null
  >`left(regexp_replace(${deliveryEvents.smtpResponse}, '<[^>]*>|[^\\s<>]+@[^\\s<>]+|\\m[0-9a-z]*[0-9][0-9a-z]*[a-z][0-9a-z]*\\M|\\m[0-9a-z]*[a-z][0-9a-z]*[0-9][0-9a-z]*\\M', '', 'gi'), 400)`;
  const where = [
    eq(deliveryEvents.userId, userId),
    gte(deliveryEvents.occurredAt, since),
    inArray(deliveryEvents.eventType, ['bounced', 'deferred'] as DeliveryEventType[]),
  ];
  if (source) where.push(eq(deliveryEvents.source, source));
  const rows = await ex
    .select({
      eventType: deliveryEvents.eventType,
      enhancedStatus: deliveryEvents.enhancedStatus,
      response,
      mailboxProvider: deliveryEvents.mailboxProvider,
      sendingIp: deliveryEvents.sendingIp,
      domain: deliveryEvents.domain,
      count: sql<number>`count(*)::int`,
    })
    .from(deliveryEvents)
    .where(and(...where))
    .groupBy(
      deliveryEvents.eventType,
      deliveryEvents.enhancedStatus,
      response,
      deliveryEvents.mailboxProvider,
      deliveryEvents.sendingIp,
      deliveryEvents.domain,
    )
    .orderBy(sql`count(*) desc`)
    .limit(limit);
  return rows as FailureGroup[];
}

/** How many bounces and deferrals there were from `since`. */
export async function countFailures(ex: Executor, userId: number, since: Date, source?: EventSource): Promise<number> {
  const where = [
    eq(deliveryEvents.userId, userId),
    gte(deliveryEvents.occurredAt, since),
    inArray(deliveryEvents.eventType, ['bounced', 'deferred'] as DeliveryEventType[]),
  ];
  if (source) where.push(eq(deliveryEvents.source, source));
  const [row] = await ex
    .select({ n: sql<number>`count(*)::int` })
    .from(deliveryEvents)
    .where(and(...where));
  return row.n;
}

/** One day's figures of a source, as its own statistics give them: the outcomes events are counted by, with sends, opens and clicks. */
export interface DayFigures extends EventCounts {
  emailsSent: number;
  opens: number;
  clicks: number;
}

/**
 * Writes a source's own figures for each of `days` over what that day had (the row under no mailbox
 * provider and no IP): an ESP plugin's sync, a pushed SMTP2GO day, POST /api/v1/metrics.
 */
export async function writeOwnDayFigures(
  ex: Executor,
  userId: number,
  provider: string,
  days: readonly (DayFigures & { date: string })[],
) {
  if (days.length === 0) return [];
  return ex
    .insert(emailMetrics)
    .values(days.map((d) => ({ userId, provider, mailboxProvider: '', sendingIp: '', ...d })))
    .onConflictDoUpdate({
      target: [
        emailMetrics.userId,
        emailMetrics.provider,
        emailMetrics.date,
        emailMetrics.mailboxProvider,
        emailMetrics.sendingIp,
      ],
      set: {
        emailsSent: sql`excluded.emails_sent`,
        delivered: sql`excluded.delivered`,
        bounced: sql`excluded.bounced`,
        hardBounces: sql`excluded.hard_bounces`,
        softBounces: sql`excluded.soft_bounces`,
        deferred: sql`excluded.deferred`,
        complaints: sql`excluded.complaints`,
        opens: sql`excluded.opens`,
        clicks: sql`excluded.clicks`,
      },
    })
    .returning();
}
