import type { Env } from '../env';
import { parseTestLocalPart } from '../../inbox-tests/test-address';

/*
 * The addresses the inbound SMTP listener accepts, all on INBOUND_DOMAIN. One place decides what a
 * recipient is, for the listener (which refuses anything else) and for the screens that show them.
 */

export type InboundKind = 'dmarc' | 'inbox_test';

const DMARC_LOCAL_PART = 'dmarc';

export function dmarcReportAddress(env: Pick<Env, 'INBOUND_DOMAIN'>): string {
  return `${DMARC_LOCAL_PART}@${env.INBOUND_DOMAIN}`;
}

/** What a recipient address is for, or undefined when the listener must refuse it. */
export function classifyRecipient(address: string, env: Pick<Env, 'INBOUND_DOMAIN'>): InboundKind | 'foreign_domain' | undefined {
  const at = address.lastIndexOf('@');
  if (at < 1) return undefined;
  const local = address.slice(0, at).toLowerCase();
  const domain = address.slice(at + 1).toLowerCase().replace(/\.$/, '');
  if (domain !== env.INBOUND_DOMAIN) return 'foreign_domain';
  // Sub-addressing (dmarc+anything@) reaches the same mailbox, as receivers expect.
  if (local === DMARC_LOCAL_PART || local.startsWith(`${DMARC_LOCAL_PART}+`)) return 'dmarc';
  // A test's own address (the listener also checks that the test exists), or test@ matched by subject tag.
  if (parseTestLocalPart(local)) return 'inbox_test';
  return undefined;
}
