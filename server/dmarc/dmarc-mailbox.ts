import { DMARC_REPORT_LOCAL_PART, dmarcReportAddress as addressOn } from '@contracts/dmarc';
import type { Env } from '../platform/env';
import type { InboundMailbox } from '../platform/smtp/addresses';
import { finishInboundMessage } from '../platform/smtp/inbound.repo';
import { importMailedReports } from './report-intake';

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
  /** Imports the mail's reports for the users who verified their domains. */
  async process(ctx, message) {
    // The SMTP session's envelope authenticates the reporter (SPF); a mailbox-fetched message has none.
    const envelope = message.remoteIp
      ? { ip: message.remoteIp, helo: message.helo ?? '', mailFrom: message.mailFrom ?? '' }
      : null;
    const outcome = await importMailedReports(ctx, message.raw, `message-${message.id}.eml`, envelope);
    // Kept whole only to replay a proven reporter's report for an owner still to verify its domain.
    await finishInboundMessage(ctx.db, message.id, { ...outcome, keepBody: outcome.replayable === true });
    ctx.log[outcome.status === 'processed' ? 'info' : 'warn'](
      { messageId: message.id, status: outcome.status, result: outcome.result },
      'DMARC report mail processed',
    );
  },
};
