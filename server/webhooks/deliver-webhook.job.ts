import { z } from 'zod';
import { jobType, type JobSender } from '../platform/job-sender';

/** One attempt of one webhook delivery. The service queues it; deliver-webhook.runner.ts runs it. */
export const deliverWebhookJob = jobType('deliver-webhook', z.object({ deliveryId: z.number().int().positive() }));

/** Queues a delivery's attempt; an alert's goes ahead of bulk event notifications waiting in the queue. */
export async function queueWebhookAttempt(
  jobs: JobSender,
  deliveryId: number,
  options: { eventType?: string; startAfterSeconds?: number } = {},
): Promise<void> {
  const priority = options.eventType?.startsWith('alert.') ? 1 : 0;
  await jobs.send(deliverWebhookJob, { deliveryId }, { priority, startAfterSeconds: options.startAfterSeconds });
}
