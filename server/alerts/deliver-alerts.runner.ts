import { defineRunner } from '../platform/queue/job';
import { deliverUserAlerts } from './delivery/alert-delivery.service';
import { deliverAlertsJob } from './deliver-alerts.job';

/**
 * One user's pending alert notifications, taken and claimed by their frequency and quiet hours.
 * 'stately' with singletonKey user-<id> (every sender passes it, through queueAlertDelivery): one waits
 * and one runs per user, so a burst of alerts makes one run, and one queued while a run goes picks up
 * what it missed.
 */
export const deliverAlertsRunner = defineRunner(deliverAlertsJob, {
  policy: 'stately',
  retryLimit: 3,
  retryDelaySeconds: 10,
  batchSize: 4,
  async run({ userId }, ctx) {
    const queued = await deliverUserAlerts(ctx, userId, new Date());
    if (queued.length > 0) ctx.log.info({ userId, messages: queued.length }, 'alert messages queued');
  },
});
