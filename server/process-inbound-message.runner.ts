import { INBOUND_MAILBOXES } from './inbound-mailboxes';
import { defineRunner } from './platform/queue/job';
import { attemptAllowed, giveUp } from './platform/queue/durable-delivery';
import { claimInboundMessage, finishInboundMessage, INBOUND_POLICY, inboundItems } from './platform/smtp/inbound.repo';
import { processInboundMessageJob } from './platform/smtp/process-inbound-message.job';

/** Processes one received message (inbound SMTP or the report mailbox) by the mailbox it was addressed to. */
export const processInboundMessageRunner = defineRunner(processInboundMessageJob, {
  retryLimit: 3,
  // Maintenance queues a stranded message every minute until it is processed: one job per message.
  policy: 'stately',
  retryDelaySeconds: 30,
  // The analysis runs in worker threads and the rest waits on the database: a batch keeps both busy.
  // bench:smtp at 50 clients on 2 cores: 8 ~90 msg/s, 16 ~105, 32 ~88 (fewer fetches, less waiting on the slowest of a
  // batch).
  batchSize: 16,
  // A worker fetches again only when its whole batch is done: with one, a mail that arrives while a batch of large
  // report mails is being read waits for all of them. The second fetches it meanwhile (its report then waits in its own
  // network's lane of the intake thread, report-intake.ts). bench:smtp, 1,000 messages, 50 clients, 2 cores, pairs run
  // back to back: analysed msg/s 91.7 and 56.0 with two workers against 84.3 and 61.6 with one (noise), report p99
  // 3.6 s and 6.0 s against 4.7 s and 7.7 s.
  workers: 2,
  async run({ messageId }, ctx) {
    const message = await claimInboundMessage(ctx.db, messageId);
    if (!message) return; // processed already, or purged
    if (!message.raw)
      return finishInboundMessage(ctx.db, message.id, { status: 'failed', result: 'The message body is missing.' });
    if (!attemptAllowed(INBOUND_POLICY, message.attempts))
      return giveUp(ctx.db, inboundItems, message.id, `Gave up after ${INBOUND_POLICY.maxAttempts} attempts.`);
    const mailbox = INBOUND_MAILBOXES.find((m) => m.kind === message.kind);
    if (!mailbox) throw new Error(`No inbound mailbox takes ${message.kind} messages`);
    await mailbox.process(ctx, { ...message, raw: message.raw });
  },
});
