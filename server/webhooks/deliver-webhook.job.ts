import { z } from 'zod';
import { defineJob } from '../platform/queue/job';
import { deliverWebhookJobType } from './deliver-webhook.job-type';
import { attemptDelivery, sweepStrandedDeliveries } from './webhooks.service';

/**
 * One attempt of one webhook delivery. A failed attempt queues the next itself (webhooks.service.ts);
 * the job's own retries are for a worker that died mid-attempt or a database that failed.
 */
export const deliverWebhookJob = defineJob({
  ...deliverWebhookJobType,
  retryLimit: 2,
  retryDelaySeconds: 30,
  // Mostly waiting on receivers: a slow one must not hold up the others.
  batchSize: 8,
  async run({ deliveryId }, ctx) {
    await attemptDelivery(ctx, deliveryId);
  },
});

/** Every 5 minutes: deliveries whose next attempt is long overdue (their job was never queued or was lost). */
export const sweepWebhookDeliveriesJob = defineJob({
  name: 'sweep-webhook-deliveries',
  schema: z.object({}).passthrough(),
  schedule: '*/5 * * * *',
  retryLimit: 0,
  async run(_data, ctx) {
    const queued = await sweepStrandedDeliveries(ctx);
    if (queued > 0) ctx.log.info({ queued }, 'stranded webhook deliveries queued');
  },
});
