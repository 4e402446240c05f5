import { z } from 'zod';
import { jobType } from './platform/job-sender';

/** The every-minute clean-up and re-queue round (maintenance.runner.ts). Only its schedule sends it; tests too. */
export const maintenanceJob = jobType('maintenance', z.object({}).passthrough());
