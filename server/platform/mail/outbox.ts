import type { Logger } from 'pino';
import type { Db, Executor } from '../db/client';
import { claimItem, failAttempt, type RetryPolicy } from '../queue/durable-delivery';
import type { Mailer, MailMessage } from './mailer';
import { insertOutboxMail, markOutboxSent, outboxItems } from './outbox.repo';

/** Five attempts; the send-email job's own retries wait between them (5-10 s, 10-20 s, 20-40 s, 40-80 s). */
const SEND_POLICY: RetryPolicy = { maxAttempts: 5, backoffSeconds: () => 0 };
const CLAIM_SECONDS = 120;

export interface OutboxMail extends MailMessage {
  userId: number | null;
  kind: 'verify_email' | 'reset_password' | 'alert_notification' | 'webhook_paused';
}

/**
 * Writes a mail to the outbox inside the caller's transaction. Returns the row id when it is to be
 * delivered (the caller sends the send-email job after commit), or null when SMTP is not set up.
 * Mail carries secrets (reset and verification links): without SMTP only its envelope is kept, and
 * nothing of its text is logged; an operator makes a fresh link with `npm run reset-link`.
 */
export async function queueMail(ex: Executor, mailer: Mailer, mail: OutboxMail, log: Logger): Promise<number | null> {
  const id = await insertOutboxMail(ex, {
    userId: mail.userId,
    kind: mail.kind,
    toAddress: mail.to,
    subject: mail.subject,
    textBody: mailer.configured ? mail.text : null,
    htmlBody: mailer.configured ? mail.html : null,
    status: mailer.configured ? 'pending' : 'not_configured',
  });
  if (mailer.configured) return id;
  log.warn(
    { outboxId: id, kind: mail.kind },
    mail.kind === 'reset_password'
      ? 'SMTP_URL is not set: a password reset mail was not sent. An operator can make a fresh link with `npm run reset-link -- <e-mail>`'
      : 'SMTP_URL is not set: mail not sent',
  );
  return null;
}

/**
 * Sends one outbox row. The row is claimed first, so two senders never send it twice and a sender
 * that dies frees it when the claim runs out. Throws on failure so the job is retried.
 */
export async function deliverOutboxMail(db: Db, mailer: Mailer, id: number): Promise<'sent' | 'skipped'> {
  const claimed = await claimItem(db, outboxItems, id, CLAIM_SECONDS);
  if (!claimed) return 'skipped';
  try {
    await mailer.send({
      to: claimed.toAddress,
      subject: claimed.subject,
      text: claimed.textBody ?? '',
      html: claimed.htmlBody ?? '',
    });
  } catch (err) {
    await failAttempt(db, outboxItems, SEND_POLICY, claimed, String((err as Error).message).slice(0, 500));
    throw err;
  }
  await markOutboxSent(db, id);
  return 'sent';
}
