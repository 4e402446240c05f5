import { and, eq, getTableColumns, gt, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db, Executor } from '../db/client';
import { isSameOrSubdomain } from '../db/domain-match';
import { findStranded, type ClaimedTable, type RetryPolicy } from '../queue/durable-delivery';
import { inboundMessages } from '../db/schema/index';
import { BODY_PIECE_BYTES, bodyValue, readInboundBody } from './inbound-body';

export type InboundMessage = typeof inboundMessages.$inferSelect;
export type NewInboundMessage = Pick<
  typeof inboundMessages.$inferInsert,
  'kind' | 'source' | 'sourceKey' | 'remoteIp' | 'helo' | 'tls' | 'mailFrom' | 'rcptTo' | 'targetIds'
> & {
  /** The body, whole or as pieces in order (BodyPieces). */
  raw: Buffer | Buffer[];
};

/**
 * Five attempts; the job's own retries (and then the maintenance sweep) wait between them. A message
 * whose processing throws stays received, so the retry takes it again.
 */
export const INBOUND_POLICY: RetryPolicy = { maxAttempts: 5, backoffSeconds: () => 0 };

/**
 * Received messages as durable delivery sees them (platform/queue/durable-delivery.ts). No lease: one
 * job per message (its singleton key) works it. The sending host stands for the account, so one
 * flooding sender cannot hold back the others' messages in a sweep.
 */
export const inboundItems: ClaimedTable<typeof inboundMessages> = {
  table: inboundMessages,
  id: inboundMessages.id,
  account: sql`coalesce(${inboundMessages.remoteIp}, ${inboundMessages.source})`,
  createdAt: inboundMessages.receivedAt,
  pending: eq(inboundMessages.status, 'received'),
  // Received but never processed (the process died before its job ran, or the job gave up mid-way), and
  // replayed ones (processed before, handed back by replayUnroutedFor), which are due at once.
  stranded: and(
    lt(inboundMessages.attempts, INBOUND_POLICY.maxAttempts),
    or(lt(inboundMessages.receivedAt, sql`now() - interval '5 minutes'`), isNotNull(inboundMessages.processedAt)),
  )!,
  attempts: inboundMessages.attempts,
  gaveUp: (result) => ({ status: 'failed', result, reportDomains: [], processedAt: sql`now()` }),
};

/**
 * Stores a received message, its body whole or as pieces (BodyPieces: a large one is written a piece at a time);
 * undefined when one with the same sourceKey is already stored.
 */
export async function storeInboundMessage(
  ex: Executor,
  { raw, ...message }: NewInboundMessage,
): Promise<number | undefined> {
  const pieces = Buffer.isBuffer(raw) ? [raw] : raw;
  const insert = async (tx: Executor) => {
    const [row] = await tx
      .insert(inboundMessages)
      .values({
        ...message,
        size: pieces.reduce((sum, piece) => sum + piece.length, 0),
        raw: await bodyValue(tx, pieces),
      })
      .onConflictDoNothing({ target: inboundMessages.sourceKey })
      .returning({ id: inboundMessages.id });
    return row?.id;
  };
  return pieces.length > 1 ? ex.transaction(insert) : insert(ex);
}

/**
 * Takes a message for processing, counting the attempt; undefined when it is done already. A large body is read
 * after the claim, a piece at a time (inbound-body.ts), so that no read of it holds the event loop.
 */
export async function claimInboundMessage(db: Db, id: number): Promise<InboundMessage | undefined> {
  const { raw, ...columns } = getTableColumns(inboundMessages);
  const [claimed] = await db
    .update(inboundMessages)
    .set({ attempts: sql`${inboundMessages.attempts} + 1` })
    .where(and(eq(inboundMessages.id, id), inboundItems.pending))
    .returning({
      ...columns,
      smallRaw: sql<Buffer | null>`case when octet_length(${raw}) <= ${BODY_PIECE_BYTES} then ${raw} end`.mapWith(raw),
      rawBytes: sql<number | null>`octet_length(${raw})`,
    });
  if (!claimed) return undefined;
  const { smallRaw, rawBytes, ...message } = claimed;
  const body = rawBytes === null ? null : (smallRaw ?? (await readInboundBody(db, id, rawBytes)));
  return { ...message, raw: body };
}

/**
 * Failed and unrouted messages kept whole (for a day: an operator looks, an unrouted report is replayed), all
 * of them together at most; past it, a message keeps only its headers, so a sender cannot fill the disk with mail
 * nobody takes (issue 36).
 */
export const KEPT_BODIES_MAX_BYTES = 256 * 1024 * 1024;

/** The first 64 KB of a message's header block, at most: what stays of a message whose body is dropped. */
const headersOnly = sql`substring(raw FROM 1 FOR least(65536, coalesce(nullif(position(decode('0d0a0d0a', 'hex') IN raw), 0) + 3, octet_length(raw))))`;

/**
 * The outcome of processing. The raw message is dropped once its content lives elsewhere (processed); a
 * failed or unrouted one is kept whole, unless `keepBody` is false (the mailbox found nothing worth keeping:
 * a stranger's mail) or the kept bodies already hold KEPT_BODIES_MAX_BYTES, when only its headers stay.
 */
export async function finishInboundMessage(
  ex: Executor,
  id: number,
  outcome: {
    status: 'processed' | 'failed' | 'unrouted';
    result: string;
    reportDomains?: string[];
    keepBody?: boolean;
  },
): Promise<void> {
  const { status, result, reportDomains = [] } = outcome;
  const finished = { status, result, reportDomains, processedAt: sql`now()` };
  if (status === 'processed') {
    await ex
      .update(inboundMessages)
      .set({ ...finished, raw: null })
      .where(eq(inboundMessages.id, id));
    return;
  }
  const kept = sql`(select coalesce(sum(size), 0) from ${inboundMessages}
    where status in ('failed', 'unrouted') and raw is not null and body_dropped_at is null and id <> ${id})`;
  const keep =
    outcome.keepBody === false ? sql`false` : sql`${kept} + ${inboundMessages.size} <= ${KEPT_BODIES_MAX_BYTES}`;
  await ex
    .update(inboundMessages)
    .set({
      ...finished,
      raw: sql`case when ${keep} then raw else ${headersOnly} end`,
      bodyDroppedAt: sql`case when ${keep} then null else now() end`,
    })
    .where(eq(inboundMessages.id, id));
}

/**
 * The addresses that delivered mail over SMTP which the product used (processed) in the last 30 days: DMARC report
 * senders and the MTAs and ESPs of inbox tests. The listener keeps connection slots for their networks.
 */
export async function recentSenderIps(db: Db): Promise<string[]> {
  const rows = await db
    .selectDistinct({ ip: inboundMessages.remoteIp })
    .from(inboundMessages)
    .where(
      and(
        eq(inboundMessages.status, 'processed'),
        gt(inboundMessages.receivedAt, sql`now() - interval '30 days'`),
        eq(inboundMessages.source, 'smtp'),
        isNotNull(inboundMessages.remoteIp),
      ),
    );
  return rows.map((row) => row.ip!);
}

/** Messages due for processing whose job is not coming, at most 20 from one sending host a round. */
export async function findStrandedInbound(db: Db): Promise<number[]> {
  return findStranded(db, inboundItems, { limit: 100, perAccount: 20 });
}

/**
 * A day after a message failed or found no owner, only its headers are kept (at most 64 KB of them):
 * enough for an operator to see who sent what and why it failed, while a sender cannot fill the disk
 * with mail nobody takes. An unrouted report is replayed for a domain verified within that day.
 * Returns how many bodies were dropped.
 */
export async function dropOldInboundBodies(db: Db): Promise<number> {
  const result = await db.execute(sql`
    UPDATE ${inboundMessages} SET raw = ${headersOnly}, body_dropped_at = now()
    WHERE status IN ('failed', 'unrouted') AND raw IS NOT NULL AND body_dropped_at IS NULL
      AND processed_at < now() - interval '1 day'`);
  return result.rowCount ?? 0;
}

/** Kept 30 days: long enough for an operator to look at a failed or unrouted message. */
export async function purgeOldInbound(db: Db): Promise<void> {
  await db.delete(inboundMessages).where(lt(inboundMessages.receivedAt, sql`now() - interval '30 days'`));
}

/**
 * A domain was just verified: its reports that arrived before, with no verified owner, are handed
 * back to processing (maintenance queues them within a minute). Returns how many.
 */
export async function replayUnroutedFor(ex: Executor, domain: string): Promise<number> {
  const rows = await ex
    .update(inboundMessages)
    .set({ status: 'received', attempts: 0 })
    .where(
      and(
        eq(inboundMessages.status, 'unrouted'),
        isNull(inboundMessages.bodyDroppedAt),
        sql`exists (select 1 from unnest(${inboundMessages.reportDomains}) as d where ${isSameOrSubdomain(sql`d`, domain)})`,
      ),
    )
    .returning({ id: inboundMessages.id });
  return rows.length;
}

/**
 * Account deletion, inside its transaction and before the user's inbox tests go (their ids and the
 * messages stored for them come from the inbox-tests capability): the messages that were the user's own. Those sent to their inbox tests (their content, From and subject), any message from
 * their address, and the DMARC report mails whose processing log names them ("imported for user 12"):
 * the log is an operator's, and a mail routed to several owners loses it with the first to leave; the
 * other owners' reports themselves stay. Mail that never reached the user (unrouted reports for a
 * domain they had not verified) stays: it holds nothing of the account.
 */
export async function deleteUserInboundMessages(
  ex: Executor,
  user: { id: number; email: string; testIds: number[]; testMessageIds: number[] },
): Promise<void> {
  await ex.execute(sql`
    DELETE FROM ${inboundMessages} m
    WHERE m.id = ANY(${sql.param(user.testMessageIds)}::int[])
      OR m.target_ids && ${sql.param(user.testIds)}::int[]
      OR lower(m.mail_from) = ${user.email.toLowerCase()}
      OR m.result ~ ${`\\mfor user ${user.id}\\M`}`);
}
