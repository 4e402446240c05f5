import type { Env } from '../platform/env';
import type { InboundMailbox } from '../platform/smtp/addresses';

const DMARC_LOCAL_PART = 'dmarc';

/** Where reporters send aggregate reports (the rua= of a domain's DMARC record). */
export function dmarcReportAddress(env: Pick<Env, 'INBOUND_DOMAIN'>): string {
  return `${DMARC_LOCAL_PART}@${env.INBOUND_DOMAIN}`;
}

/** dmarc@ on INBOUND_DOMAIN; sub-addressing (dmarc+anything@) reaches the same mailbox, as receivers expect. */
export const dmarcMailbox: InboundMailbox = {
  kind: 'dmarc',
  resolve: (_db, local) => (local === DMARC_LOCAL_PART || local.startsWith(`${DMARC_LOCAL_PART}+`) ? { targetId: null } : 'not_mine'),
};
