import { z } from 'zod';
import { jobType } from '../../platform/job-sender';

/** Queues an evaluation for every user with something to evaluate. Only its schedule and tests send it. */
export const scheduleAlertEvaluationsJob = jobType('schedule-alert-evaluations', z.object({}).passthrough());
