import { z } from 'zod';
import { jobType } from '../platform/job-sender';

/** Part 2, section 9: checks every 2 hours. nextRun in the status is read from this. */
export const MONITORING_SCHEDULE = '0 */2 * * *';
export const MONITORING_INTERVAL_HOURS = 2;

/** Queues one check per user who monitors something. Only its schedule and tests send it. */
export const scheduleReputationChecksJob = jobType('schedule-reputation-checks', z.object({}).passthrough());
