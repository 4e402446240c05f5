import { defineRunner } from '../platform/queue/job';
import { deliverWebhookJob } from './deliver-webhook.job';
import { attemptDelivery } from './webhooks.service';

/**
 * One attempt of one webhook delivery. A failed attempt queues the next itself (webhooks.service.ts);
 * the job's own retries are for a worker that died mid-attempt or a database that failed.
 */
export const deliverWebhookRunner = defineRunner(deliverWebhookJob, {
  retryLimit: 2,
  retryDelaySeconds: 30,
  // Mostly waiting on receivers: a slow one must not hold up the others.
  batchSize: 8,
  async run({ deliveryId }, ctx) {
    await attemptDelivery(ctx, deliveryId);
  },
});
