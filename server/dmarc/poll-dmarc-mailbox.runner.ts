import { feedbackLoopAddress } from '@contracts/feedback-loops';
import { isComplaintReport } from '../engine/feedback-reports/arf-report';
import { drainUnseen } from './report-mailbox';
import { parseImapUrl } from '../platform/imap/imap-url';
import { dmarcReportAddress } from './dmarc-mailbox';
import { storeInboundMessage } from '../platform/smtp/inbound.repo';
import { defineRunner } from '../platform/queue/job';
import { pollDmarcMailboxJob } from './poll-dmarc-mailbox.job';
import { queueInboundProcessing } from '../platform/smtp/process-inbound-message.job';

/** Messages taken per poll: a backlog drains over a few polls instead of one long job. */
const MESSAGES_PER_POLL = 200;

/**
 * Every 5 minutes, when DMARC_IMAP_URL names a mailbox: each unread message is stored as an
 * inbound message (named by folder, UIDVALIDITY and UID, so a message seen twice is stored once)
 * and flagged read only after that; a job then imports its reports as for mail to dmarc@. A feedback loop's
 * complaint report found there is handed on as mail to fbl@ (the feedback-loops mailbox), since operators often
 * give one mailbox to both.
 */
export const pollDmarcMailboxRunner = defineRunner(pollDmarcMailboxJob, {
  schedule: '*/5 * * * *',
  async run(_data, { db, env, jobs, log }) {
    if (!env.DMARC_IMAP_URL) return;
    const config = parseImapUrl(env.DMARC_IMAP_URL, 'DMARC_IMAP_URL');
    const queued: number[] = [];
    const result = await drainUnseen(config, {
      limit: MESSAGES_PER_POLL,
      maxBytes: env.SMTP_MAX_MESSAGE_BYTES,
      logger: log,
      async handle(message) {
        const complaint = isComplaintReport(message.raw);
        const id = await storeInboundMessage(db, {
          kind: complaint ? 'fbl' : 'dmarc',
          source: 'imap',
          sourceKey: `imap:${config.host}:${config.user}:${message.folder}:${message.uidValidity}:${message.uid}`,
          rcptTo: [complaint ? feedbackLoopAddress(env.INBOUND_DOMAIN) : dmarcReportAddress(env)],
          raw: message.raw,
        });
        if (id !== undefined) queued.push(id);
      },
    });
    // Queued after the mailbox is done with; a process that dies before this leaves them to maintenance.
    for (const messageId of queued) await queueInboundProcessing(jobs, messageId);
    log.info({ ...result, skippedTooBig: result.skippedTooBig.length }, 'DMARC mailbox polled');
  },
});
