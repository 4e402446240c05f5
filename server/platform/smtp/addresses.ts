import type { Db } from '../db/client';
import type { inboundMessages } from '../db/schema/index';
import type { Env } from '../env';

/*
 * The addresses the inbound SMTP listener accepts, all on INBOUND_DOMAIN. Each capability that
 * receives mail registers a mailbox (server/inbound-mailboxes.ts lists them); one place decides what
 * a recipient is, for the listener (which refuses anything else) and for the jobs that process it.
 */

export type InboundKind = (typeof inboundMessages.$inferSelect)['kind'];

/** A capability's addresses on INBOUND_DOMAIN: mail for them is stored under `kind` and handed to it. */
export interface InboundMailbox {
  kind: InboundKind;
  /** Whether a local part (lower case, without the domain) is one of this mailbox's addresses. */
  owns(localPart: string): boolean;
  /** Whether the address exists right now, checked at RCPT time so a wrong one bounces at once; every owned address when absent. */
  exists?(db: Db, address: string): Promise<boolean>;
}

/** The mailbox a recipient address belongs to, 'foreign_domain' for mail to another domain, or undefined when no mailbox owns it. */
export function classifyRecipient(address: string, env: Pick<Env, 'INBOUND_DOMAIN'>, mailboxes: readonly InboundMailbox[]): InboundMailbox | 'foreign_domain' | undefined {
  const at = address.lastIndexOf('@');
  if (at < 1) return undefined;
  const local = address.slice(0, at).toLowerCase();
  const domain = address.slice(at + 1).toLowerCase().replace(/\.$/, '');
  if (domain !== env.INBOUND_DOMAIN) return 'foreign_domain';
  return mailboxes.find((mailbox) => mailbox.owns(local));
}
