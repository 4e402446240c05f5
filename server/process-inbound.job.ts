import { queueAlertEvaluation } from './alerts/alerts.service';
import { importMailedReports } from './dmarc/report-intake';
import { processTestMessage } from './inbox-tests/process-test-message';
import { claimInboundMessage, finishInboundMessage, MAX_PROCESS_ATTEMPTS } from './platform/smtp/inbound.repo';
import { defineJob } from './platform/queue/job';
import { processInboundJobType } from './platform/smtp/inbound-queue';
import { queueSeedPolling } from './inbox-tests/seeds/poll-seed-mailboxes.job';

/** Processes one received message (inbound SMTP or the report mailbox) by what it was addressed to: a DMARC report or an inbox test. */
export const processInboundJob = defineJob({
  ...processInboundJobType,
  retryLimit: 3,
  // Maintenance queues a stranded message every minute until it is processed: one job per message.
  policy: 'stately',
  retryDelaySeconds: 30,
  // The analysis runs in worker threads and the rest waits on the database: a batch keeps both busy.
  // bench:smtp at 50 clients on 2 cores: 8 ~90 msg/s, 16 ~105, 32 ~88 (fewer fetches, less waiting on the slowest of a
  // batch).
  batchSize: 16,
  async run({ messageId }, ctx) {
    const { db, log } = ctx;
    const message = await claimInboundMessage(db, messageId);
    if (!message) return; // processed already, or purged
    if (!message.raw)
      return finishInboundMessage(db, message.id, { status: 'failed', result: 'The message body is missing.' });
    if (message.attempts > MAX_PROCESS_ATTEMPTS) {
      return finishInboundMessage(db, message.id, {
        status: 'failed',
        result: `Gave up after ${MAX_PROCESS_ATTEMPTS} attempts.`,
      });
    }
    if (message.kind === 'inbox_test') {
      const { pollSeeds, completedFor = [], ...outcome } = await processTestMessage(ctx, message);
      await finishInboundMessage(db, message.id, outcome);
      // After the test is running and committed: the seed poller looks for it at once, not at the next minute.
      if (pollSeeds) await queueSeedPolling(ctx.jobs);
      for (const userId of completedFor) await queueAlertEvaluation(ctx.jobs, userId);
      log[outcome.status === 'processed' ? 'info' : 'warn']({ messageId, ...outcome }, 'inbox test message processed');
      return;
    }
    // The SMTP session's envelope authenticates the reporter (SPF); a mailbox-fetched message has none.
    const envelope = message.remoteIp
      ? { ip: message.remoteIp, helo: message.helo ?? '', mailFrom: message.mailFrom ?? '' }
      : null;
    const outcome = await importMailedReports(ctx, message.raw, `message-${message.id}.eml`, envelope);
    await finishInboundMessage(db, message.id, outcome);
    log[outcome.status === 'processed' ? 'info' : 'warn'](
      { messageId, status: outcome.status, result: outcome.result },
      'DMARC report mail processed',
    );
  },
});
