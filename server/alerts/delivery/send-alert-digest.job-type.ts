import { z } from 'zod';
import { jobType } from '../../platform/job-sender';

/** Sending one alert message (an alert_digests row) on its channel; send-alert-digest.job.ts runs it. */
export const sendAlertDigestJobType = jobType('send-alert-digest', z.object({ digestId: z.number().int().positive() }));
