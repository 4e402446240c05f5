import { defineRunner } from '../platform/queue/job';
import { sweepWebhookDeliveriesJob } from './sweep-webhook-deliveries.job';
import { sweepStrandedDeliveries } from './webhooks.service';

/** Every 5 minutes: deliveries whose next attempt is long overdue (their job was never queued or was lost). */
export const sweepWebhookDeliveriesRunner = defineRunner(sweepWebhookDeliveriesJob, {
  schedule: '*/5 * * * *',
  retryLimit: 0,
  async run(_data, ctx) {
    const queued = await sweepStrandedDeliveries(ctx);
    if (queued > 0) ctx.log.info({ queued }, 'stranded webhook deliveries queued');
  },
});
