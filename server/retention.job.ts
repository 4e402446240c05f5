import { z } from 'zod';
import { jobType } from './platform/job-sender';

/** Deletes monitoring data older than each user's plan keeps it. Only its schedule sends it. */
export const retentionJob = jobType('data-retention', z.object({}).passthrough());
