import { z } from 'zod';
import { jobType } from '../platform/job-sender';

/** The hourly round that queues every integration due a sync. Only its schedule sends it. */
export const scheduleIntegrationSyncsJob = jobType('schedule-integration-syncs', z.object({}).passthrough());
