import { FBL_LOCAL_PART } from '@contracts/feedback-loops';
import type { AppContext } from '../platform/context';
import type { InboundMailbox } from '../platform/smtp/addresses';
import { finishInboundMessage } from '../platform/smtp/inbound.repo';
import { provenSenderDomains } from '../dmarc/dmarc.service';
import type { SmtpEnvelope } from '../engine/message-analysis/checks/authentication';
import { MAX_REPORT_BYTES, readFeedbackLoopReport } from '../engine/feedback-reports/arf-report';
import { recordComplaint, type ComplaintOutcome } from './complaint-intake';

/** fbl@ on INBOUND_DOMAIN, where feedback loops send complaints; fbl+anything@ reaches it too. */
export const fblMailbox: InboundMailbox = {
  kind: 'fbl',
  resolve: (_db, local) =>
    local === FBL_LOCAL_PART || local.startsWith(`${FBL_LOCAL_PART}+`) ? { targetId: null } : 'not_mine',
  /** Counts the report's complaint for the owners of its domain. Nothing of the mail is kept but its headers. */
  async process(ctx, message) {
    // The SMTP session's envelope lets SPF (through DMARC) prove the sender; a mailbox-fetched message has none.
    const envelope = message.remoteIp
      ? { ip: message.remoteIp, helo: message.helo ?? '', mailFrom: message.mailFrom ?? '' }
      : null;
    const outcome = await takeComplaintReport(ctx, message.raw, envelope);
    await finishInboundMessage(ctx.db, message.id, { ...outcome, keepBody: false });
    ctx.log[outcome.status === 'processed' ? 'info' : 'warn'](
      { messageId: message.id, status: outcome.status, result: outcome.result },
      'Feedback loop report processed',
    );
  },
};

/** A feedback loop report mail, read and counted (complaint-intake.ts). */
export async function takeComplaintReport(
  ctx: Pick<AppContext, 'db' | 'dns' | 'jobs' | 'log'>,
  raw: Buffer,
  envelope: SmtpEnvelope | null,
): Promise<ComplaintOutcome> {
  // Read on the job's event loop: a report is a few KB, and this bound keeps a hostile one from holding it.
  if (raw.byteLength > MAX_REPORT_BYTES)
    return {
      status: 'failed',
      result: `The message is larger than ${MAX_REPORT_BYTES / 1024 / 1024} MB, more than a feedback report is: not read.`,
      reportDomains: [],
    };
  const report = readFeedbackLoopReport(raw);
  return recordComplaint(ctx, report, await provenSenderDomains(raw, envelope, ctx.dns));
}
