import { z } from 'zod';
import { jobType, type JobSender } from '../platform/job-sender';

/**
 * Delivering one user's pending alert notifications (by their frequency and quiet hours); its runner
 * is deliver-alerts.runner.ts. Queued after alerts are raised, escalated or resolved.
 */
export const deliverAlertsJob = jobType('deliver-alerts', z.object({ userId: z.number().int().positive() }));

/** One waits and one runs per user (the runner's 'stately' policy keys on user-<id>): a burst of alerts makes one run. */
export function queueAlertDelivery(jobs: JobSender, userId: number): Promise<void> {
  return jobs.send(deliverAlertsJob, { userId }, { singletonKey: `user-${userId}` });
}
