import { z } from 'zod';
import { jobType } from '../platform/job-sender';

/** One user's blocklist and reputation check. */
export const reputationCheckJob = jobType('reputation-check', z.object({ userId: z.number().int().positive() }));
