import { z } from 'zod';
import { jobType, type JobSender } from '../platform/job-sender';

/**
 * Evaluating one user's alert conditions, as senders know it: a capability whose data changed (a
 * test completed, a reputation run ended, a domain was checked, a DMARC report was stored) queues it
 * with `singletonKey: user-<id>` after its transaction commits. Its runner lives in
 * server/alerts/evaluation/.
 */
export const evaluateAlertsJob = jobType('evaluate-alerts', z.object({ userId: z.number().int().positive() }));

/** Asks for an evaluation of the user's alert conditions; call it after the transaction that changed their data commits. */
export async function queueAlertEvaluation(jobs: JobSender, userId: number): Promise<void> {
  await jobs.send(evaluateAlertsJob, { userId }, { singletonKey: `user-${userId}` });
}
