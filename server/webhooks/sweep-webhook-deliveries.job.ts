import { z } from 'zod';
import { jobType } from '../platform/job-sender';

/** Queues deliveries whose next attempt is long overdue. Only its schedule sends it. */
export const sweepWebhookDeliveriesJob = jobType('sweep-webhook-deliveries', z.object({}).passthrough());
