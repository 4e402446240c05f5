import { z } from 'zod';
import { jobType } from '../platform/job-sender';

/**
 * Delivering one user's pending alert notifications (by their frequency and quiet hours), as
 * senders know it: queued with `singletonKey: user-<id>` after alerts are raised, escalated or
 * resolved. The job itself lives in server/alerts/delivery/.
 */
export const deliverAlertsJobType = jobType('deliver-alerts', z.object({ userId: z.number().int().positive() }));
