import { DMARC_REPORT_LOCAL_PART, dmarcReportAddress as addressOn } from '@contracts/dmarc';
import type { Env } from '../platform/env';
import type { InboundMailbox } from '../platform/smtp/addresses';

/** Where reporters send aggregate reports (the rua= of a domain's DMARC record). */
export function dmarcReportAddress(env: Pick<Env, 'INBOUND_DOMAIN'>): string {
  return addressOn(env.INBOUND_DOMAIN);
}

/** dmarc@ on INBOUND_DOMAIN; sub-addressing (dmarc+anything@) reaches the same mailbox, as receivers expect. */
export const dmarcMailbox: InboundMailbox = {
  kind: 'dmarc',
  resolve: (_db, local) =>
    local === DMARC_REPORT_LOCAL_PART || local.startsWith(`${DMARC_REPORT_LOCAL_PART}+`)
      ? { targetId: null }
      : 'not_mine',
};
