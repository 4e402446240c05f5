import { z } from 'zod';
import { jobType } from '../platform/job-sender';

/** One attempt of one webhook delivery. The service queues it; deliver-webhook.runner.ts runs it. */
export const deliverWebhookJob = jobType('deliver-webhook', z.object({ deliveryId: z.number().int().positive() }));
