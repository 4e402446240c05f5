import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Db, Executor } from '../db/client';
import { outbox } from '../db/schema/index';
import type { Mailer, MailMessage } from './mailer';

export const MAX_SEND_ATTEMPTS = 5;
const CLAIM_SECONDS = 120;

export interface OutboxMail extends MailMessage {
  userId: number | null;
  kind: 'verify_email' | 'reset_password';
}

/**
 * Writes a mail to the outbox inside the caller's transaction. Returns the row id when it is to be
 * delivered (the caller sends the send-email job after commit), or null when SMTP is not set up:
 * then the mail is logged and kept for an operator.
 */
export async function queueMail(ex: Executor, mailer: Mailer, mail: OutboxMail, log: Logger): Promise<number | null> {
  const [row] = await ex
    .insert(outbox)
    .values({
      userId: mail.userId,
      kind: mail.kind,
      toAddress: mail.to,
      subject: mail.subject,
      textBody: mail.text,
      htmlBody: mail.html,
      status: mailer.configured ? 'pending' : 'not_configured',
    })
    .returning({ id: outbox.id });
  if (mailer.configured) return row.id;
  log.warn({ outboxId: row.id, to: mail.to, subject: mail.subject, text: mail.text }, 'SMTP_URL is not set: mail kept in the outbox, not sent');
  return null;
}

/**
 * Sends one outbox row. The row is claimed first, so two senders never send it twice and a sender
 * that dies frees it when the claim runs out. Throws on failure so the job is retried.
 */
export async function deliverOutboxMail(db: Db, mailer: Mailer, id: number): Promise<'sent' | 'skipped'> {
  const [claimed] = await db
    .update(outbox)
    .set({ lockedUntil: sql`now() + make_interval(secs => ${CLAIM_SECONDS})`, attempts: sql`${outbox.attempts} + 1` })
    .where(and(eq(outbox.id, id), eq(outbox.status, 'pending'), or(isNull(outbox.lockedUntil), lt(outbox.lockedUntil, sql`now()`))))
    .returning();
  if (!claimed) return 'skipped';
  try {
    await mailer.send({ to: claimed.toAddress, subject: claimed.subject, text: claimed.textBody ?? '', html: claimed.htmlBody ?? '' });
  } catch (err) {
    const failedForGood = claimed.attempts >= MAX_SEND_ATTEMPTS;
    await db
      .update(outbox)
      .set({ lastError: String((err as Error).message).slice(0, 500), lockedUntil: null, status: failedForGood ? 'failed' : 'pending' })
      .where(eq(outbox.id, id));
    throw err;
  }
  await db
    .update(outbox)
    .set({ status: 'sent', sentAt: sql`now()`, lockedUntil: null, lastError: null, textBody: null, htmlBody: null })
    .where(eq(outbox.id, id));
  return 'sent';
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
