import { z } from 'zod';
import { jobType } from '../platform/job-sender';

/** Queues one check-domain job per domain. Only its schedule and tests send it. */
export const scheduleDomainChecksJob = jobType('schedule-domain-checks', z.object({}).passthrough());
