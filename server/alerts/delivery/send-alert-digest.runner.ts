import { defineRunner } from '../../platform/queue/job';
import { sendDigest } from './alert-delivery.service';
import { sendAlertDigestJob } from './send-alert-digest.job';

/**
 * One message on one channel. A failed Slack or SMS attempt is not a failed job: the row waits for its
 * retry time and the sweep queues it again; the job's own retries are for a database that failed.
 */
export const sendAlertDigestRunner = defineRunner(sendAlertDigestJob, {
  retryLimit: 2,
  retryDelaySeconds: 30,
  // Mostly waiting on Slack, Twilio or the database.
  batchSize: 8,
  async run({ digestId }, ctx) {
    const outcome = await sendDigest(ctx, digestId);
    ctx.log.info({ digestId, outcome }, 'alert message processed');
  },
});
