import { z } from 'zod';
import { jobType } from '../platform/job-sender';

/** Queues the RDAP look-ups that are due. Only its schedule and tests send it. */
export const scheduleDomainRegistrationsJob = jobType('schedule-domain-registrations', z.object({}).passthrough());
