import { defineRunner } from '../../platform/queue/job';
import { evaluateAlertsJob } from '../evaluate-alerts.job';
import { evaluateAlerts } from './evaluate-alerts';

/**
 * One user's alert conditions. 'stately' with singletonKey user-<id> (every sender passes it): a
 * burst of data changes makes one evaluation waiting, and one queued while another runs sees what
 * that one missed.
 */
export const evaluateAlertsRunner = defineRunner(evaluateAlertsJob, {
  policy: 'stately',
  retryLimit: 3,
  retryDelaySeconds: 10,
  batchSize: 4,
  async run({ userId }, ctx) {
    const summary = await evaluateAlerts(ctx, userId);
    if (summary.raised + summary.escalated + summary.updated + summary.resolved > 0)
      ctx.log.info({ userId, ...summary }, 'alerts evaluated');
  },
});
