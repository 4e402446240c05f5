import { z } from 'zod';
import type { AnyJob } from '../../platform/queue/job';
import { defineJob } from '../../platform/queue/job';
import { deliverAlertsJobType } from '../deliver-alerts.job-type';
import { deliverUserAlerts, sendDigest, sweepAlertDelivery } from './alert-delivery.service';
import { sendAlertDigestJobType } from './send-alert-digest.job-type';

/**
 * One user's pending alert notifications, taken and claimed by their frequency and quiet hours.
 * 'stately' with singletonKey user-<id> (every sender passes it): one waits and one runs per user, so
 * a burst of alerts makes one run, and one queued while a run goes picks up what it missed.
 */
export const deliverAlertsJob = defineJob({
  ...deliverAlertsJobType,
  policy: 'stately',
  retryLimit: 3,
  retryDelaySeconds: 10,
  batchSize: 4,
  async run({ userId }, ctx) {
    const queued = await deliverUserAlerts(ctx, userId, new Date());
    if (queued.length > 0) ctx.log.info({ userId, messages: queued.length }, 'alert messages queued');
  },
});

/** Every minute: users with alerts to tell or digests now due, messages whose job was lost or whose retry is due. */
export const sweepAlertDeliveryJob = defineJob({
  name: 'sweep-alert-delivery',
  schema: z.object({}).passthrough(),
  schedule: '* * * * *',
  retryLimit: 0,
  async run(_data, ctx) {
    const swept = await sweepAlertDelivery(ctx, new Date());
    if (swept.users > 0 || swept.messages > 0) ctx.log.info(swept, 'alert delivery swept');
  },
});

/**
 * One message on one channel. A failed Slack or SMS attempt is not a failed job: the row waits for its
 * retry time and the sweep queues it again; the job's own retries are for a database that failed.
 */
export const sendAlertDigestJob = defineJob({
  ...sendAlertDigestJobType,
  retryLimit: 2,
  retryDelaySeconds: 30,
  // Mostly waiting on Slack, Twilio or the database.
  batchSize: 8,
  async run({ digestId }, ctx) {
    const outcome = await sendDigest(ctx, digestId);
    ctx.log.info({ digestId, outcome }, 'alert message processed');
  },
});

/** The delivery jobs, for the registry. */
export const alertDeliveryJobs: AnyJob[] = [deliverAlertsJob, sweepAlertDeliveryJob, sendAlertDigestJob];
