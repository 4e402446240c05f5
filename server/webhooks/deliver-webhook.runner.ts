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
  // Mostly waiting on receivers: eight attempts side by side, each on a worker of its own, so a receiver
  // that never answers holds up only its own slot (a batch waits for its slowest job). The in-flight
  // limits (webhooks.service.ts) keep one account to a few of the eight.
  workers: 8,
  async run({ deliveryId }, ctx) {
    await attemptDelivery(ctx, deliveryId);
  },
});
