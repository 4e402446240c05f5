import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db, Executor } from '../db/client';
import { outbox } from '../db/schema/index';

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
 * Claims a pending row nobody holds (or whose holder's lease ran out) for `leaseSeconds`, counting the
 * attempt; undefined when it is sent, failed, or held by another sender.
 */
export async function claimOutboxMail(db: Db, id: number, leaseSeconds: number): Promise<OutboxRow | undefined> {
  const [claimed] = await db
    .update(outbox)
    .set({ lockedUntil: sql`now() + make_interval(secs => ${leaseSeconds})`, attempts: sql`${outbox.attempts} + 1` })
    .where(
      and(
        eq(outbox.id, id),
        eq(outbox.status, 'pending'),
        or(isNull(outbox.lockedUntil), lt(outbox.lockedUntil, sql`now()`)),
      ),
    )
    .returning();
  return claimed;
}

/** A failed send: the row is freed, pending again or failed for good (then its body, which may hold a live link, is cleared). */
export async function recordSendFailure(db: Db, id: number, lastError: string, failedForGood: boolean): Promise<void> {
  await db
    .update(outbox)
    .set({
      lastError,
      lockedUntil: null,
      ...(failedForGood ? { status: 'failed', textBody: null, htmlBody: null } : { status: 'pending' }),
    })
    .where(eq(outbox.id, id));
}

/** Sent: the body is cleared, only the envelope is kept. */
export async function markOutboxSent(db: Db, id: number): Promise<void> {
  await db
    .update(outbox)
    .set({ status: 'sent', sentAt: sql`now()`, lockedUntil: null, lastError: null, textBody: null, htmlBody: null })
    .where(eq(outbox.id, id));
}

/** Pending mail nobody is sending: its job was lost (process died before sending it) or is retrying late. */
export async function findStrandedMail(db: Db): Promise<number[]> {
  const rows = await db
    .select({ id: outbox.id })
    .from(outbox)
    .where(
      and(
        eq(outbox.status, 'pending'),
        or(isNull(outbox.lockedUntil), lt(outbox.lockedUntil, sql`now()`)),
        lt(outbox.createdAt, sql`now() - interval '1 minute'`),
      ),
    )
    .limit(100);
  return rows.map((r) => r.id);
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
