import type { AppContext } from '../context';
import type { Db } from '../db/client';
import type { inboundMessages } from '../db/schema/index';
import type { Env } from '../env';
import type { InboundMessage } from './inbound.repo';

/*
 * The addresses the inbound SMTP listener accepts, all on INBOUND_DOMAIN. Each capability that
 * receives mail registers a mailbox (server/inbound-mailboxes.ts lists them); one place decides what
 * a recipient is, for the listener (which refuses anything else) and for the jobs that process it.
 */

export type InboundKind = (typeof inboundMessages.$inferSelect)['kind'];

/**
 * What a recipient's local part is to a mailbox: not one of its addresses; one of them that names
 * nothing now (a deleted test's), which bounces at once so the sender knows; or an address whose mail
 * it takes, with the item it names (an inbox test's id), or null for the mailbox as a whole.
 */
export type RecipientAnswer = 'not_mine' | 'no_such_address' | { targetId: number | null };

/** A message claimed for processing (its attempt counted), with its body. */
export type ClaimedInboundMessage = InboundMessage & { raw: Buffer };

/** A capability's addresses on INBOUND_DOMAIN: mail for them is stored under `kind` and handed to it. */
export interface InboundMailbox {
  kind: InboundKind;
  /**
   * Resolves a recipient once, when the listener is offered it (RCPT TO); the answer is stored with
   * the message, so the job that processes it need not read the addresses again.
   * `localPart` is lower case, without the domain; `address` is the whole address in lower case.
   */
  resolve(db: Db, localPart: string, address: string): RecipientAnswer | Promise<RecipientAnswer>;
  /**
   * Processes a message stored under `kind` (the process-inbound-message job): records its outcome
   * (finishInboundMessage) and logs it. Throwing leaves the message received, for the job's retry.
   */
  process(ctx: AppContext, message: ClaimedInboundMessage): Promise<void>;
}

/** A recipient accepted for a mailbox, with what it named there. */
export interface ResolvedRecipient {
  kind: InboundKind;
  targetId: number | null;
}

/**
 * What a recipient address is: 'foreign_domain' for mail to another domain, 'no_such_address' when
 * no mailbox takes it, or the mailbox's kind and what the address names in it.
 */
export async function resolveRecipient(
  db: Db,
  address: string,
  env: Pick<Env, 'INBOUND_DOMAIN'>,
  mailboxes: readonly InboundMailbox[],
): Promise<ResolvedRecipient | 'foreign_domain' | 'no_such_address'> {
  const at = address.lastIndexOf('@');
  if (at < 1) return 'no_such_address';
  const domain = address
    .slice(at + 1)
    .toLowerCase()
    .replace(/\.$/, '');
  if (domain !== env.INBOUND_DOMAIN) return 'foreign_domain';
  const local = address.slice(0, at).toLowerCase();
  for (const mailbox of mailboxes) {
    const answer = await mailbox.resolve(db, local, `${local}@${domain}`);
    if (answer === 'not_mine') continue;
    if (answer === 'no_such_address') return answer;
    return { kind: mailbox.kind, targetId: answer.targetId };
  }
  return 'no_such_address';
}
