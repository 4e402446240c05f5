import { z } from 'zod';
import { jobType } from '../platform/job-sender';

/** Raises an alert for each daily DMARC reporter that has gone quiet. Only its schedule sends it. */
export const checkDmarcReportersJob = jobType('check-dmarc-reporters', z.object({}).passthrough());
