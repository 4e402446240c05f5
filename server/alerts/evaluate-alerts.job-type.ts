import { z } from 'zod';
import { jobType } from '../platform/job-sender';

/**
 * Evaluating one user's alert conditions, as senders know it: a capability whose data changed (a
 * test completed, a reputation run ended, a domain was checked, a DMARC report was stored) queues it
 * with `singletonKey: user-<id>` after its transaction commits. The job itself lives in
 * server/alerts/evaluation/.
 */
export const evaluateAlertsJobType = jobType('evaluate-alerts', z.object({ userId: z.number().int().positive() }));
