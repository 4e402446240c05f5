import { z } from 'zod';
import { jobType } from '../platform/job-sender';

/** The delivery job as senders know it (the service queues it; deliver-webhook.job.ts runs it). */
export const deliverWebhookJobType = jobType('deliver-webhook', z.object({ deliveryId: z.number().int().positive() }));
