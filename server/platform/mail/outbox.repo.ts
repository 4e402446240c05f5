import { eq, lt, or, sql } from 'drizzle-orm';
import type { Db, Executor } from '../db/client';
import { outbox } from '../db/schema/index';
import { findStranded, type ClaimedTable } from '../queue/durable-delivery';

export type OutboxRow = typeof outbox.$inferSelect;
export type NewOutboxMail = Pick<
  typeof outbox.$inferInsert,
  'userId' | 'kind' | 'toAddress' | 'subject' | 'textBody' | 'htmlBody' | 'status'
>;

/** Inside the caller's transaction; returns the row id. */
export async function insertOutboxMail(ex: Executor, mail: NewOutboxMail): Promise<number> {
  const [row] = await ex.insert(outbox).values(mail).returning({ id: outbox.id });
  return row.id;
}

/**
 * The outbox as durable delivery sees it (platform/queue/durable-delivery.ts): a pending row is claimed
 * with a lease; one that failed for good keeps no body, which may hold a live link.
 */
export const outboxItems: ClaimedTable<typeof outbox> = {
  table: outbox,
  id: outbox.id,
  account: outbox.userId,
  createdAt: outbox.createdAt,
  pending: eq(outbox.status, 'pending'),
  // Its job was lost (the process died before sending it) or is retrying late.
  stranded: lt(outbox.createdAt, sql`now() - interval '1 minute'`),
  lockedUntil: outbox.lockedUntil,
  attempts: outbox.attempts,
  gaveUp: (lastError) => ({ status: 'failed', lastError, textBody: null, htmlBody: null }),
  retrying: (lastError) => ({ status: 'pending', lastError }),
};

/** Sent: the body is cleared, only the envelope is kept. */
export async function markOutboxSent(db: Db, id: number): Promise<void> {
  await db
    .update(outbox)
    .set({ status: 'sent', sentAt: sql`now()`, lockedUntil: null, lastError: null, textBody: null, htmlBody: null })
    .where(eq(outbox.id, id));
}

/** Pending mail nobody is sending, at most 20 of one account a round. */
export async function findStrandedMail(db: Db): Promise<number[]> {
  return findStranded(db, outboxItems, { limit: 100, perAccount: 20 });
}

/** Mail older than 30 days is forgotten (the maintenance job). */
export async function purgeOldOutboxMail(db: Db): Promise<void> {
  await db.delete(outbox).where(lt(outbox.createdAt, sql`now() - interval '30 days'`));
}

/**
 * Account deletion, inside its transaction: every mail to or about the user, pending or sent. A sent
 * row keeps only its envelope, but the envelope is the address, and nothing of a deleted account may
 * stay. A send-email job still queued for one of them finds no row and skips it.
 */
export async function deleteUserMail(ex: Executor, userId: number, email: string): Promise<void> {
  await ex
    .delete(outbox)
    .where(or(eq(outbox.userId, userId), sql`lower(${outbox.toAddress}) = ${email.toLowerCase()}`));
}
