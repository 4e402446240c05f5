import { and, eq, lt, sql } from 'drizzle-orm';
import type { Db, Executor } from '../db/client';
import { inboundMessages } from '../db/schema/index';

export type InboundMessage = typeof inboundMessages.$inferSelect;
export type NewInboundMessage = Pick<typeof inboundMessages.$inferInsert, 'kind' | 'source' | 'sourceKey' | 'remoteIp' | 'helo' | 'mailFrom' | 'rcptTo'> & {
  raw: Buffer;
};

/** After this many tries a message is marked failed instead of being tried again. */
export const MAX_PROCESS_ATTEMPTS = 5;

/** Stores a received message; undefined when one with the same sourceKey is already stored. */
export async function storeInboundMessage(ex: Executor, message: NewInboundMessage): Promise<number | undefined> {
  const [row] = await ex
    .insert(inboundMessages)
    .values({ ...message, size: message.raw.length })
    .onConflictDoNothing({ target: inboundMessages.sourceKey })
    .returning({ id: inboundMessages.id });
  return row?.id;
}

/** Takes a message for processing, counting the attempt; undefined when it is done already. */
export async function claimInboundMessage(db: Db, id: number): Promise<InboundMessage | undefined> {
  const [row] = await db
    .update(inboundMessages)
    .set({ attempts: sql`${inboundMessages.attempts} + 1` })
    .where(and(eq(inboundMessages.id, id), eq(inboundMessages.status, 'received')))
    .returning();
  return row;
}

/** The outcome of processing. The raw message is dropped once its content lives elsewhere. */
export async function finishInboundMessage(db: Db, id: number, status: 'processed' | 'failed' | 'unrouted', result: string): Promise<void> {
  await db
    .update(inboundMessages)
    .set({ status, result, processedAt: sql`now()`, ...(status === 'processed' ? { raw: null } : {}) })
    .where(eq(inboundMessages.id, id));
}

/** Messages received but never processed (the process died before its job ran, or the job gave up mid-way). */
export async function findStrandedInbound(db: Db): Promise<number[]> {
  const rows = await db
    .select({ id: inboundMessages.id })
    .from(inboundMessages)
    .where(
      and(
        eq(inboundMessages.status, 'received'),
        lt(inboundMessages.attempts, MAX_PROCESS_ATTEMPTS),
        lt(inboundMessages.receivedAt, sql`now() - interval '5 minutes'`),
      ),
    )
    .limit(100);
  return rows.map((r) => r.id);
}

/** Kept 30 days: long enough for an operator to look at a failed or unrouted message. */
export async function purgeOldInbound(db: Db): Promise<void> {
  await db.delete(inboundMessages).where(lt(inboundMessages.receivedAt, sql`now() - interval '30 days'`));
}
