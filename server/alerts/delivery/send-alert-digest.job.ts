import { z } from 'zod';
import { jobType } from '../../platform/job-sender';

/** Sending one alert message (an alert_digests row) on its channel; send-alert-digest.runner.ts runs it. */
export const sendAlertDigestJob = jobType('send-alert-digest', z.object({ digestId: z.number().int().positive() }));
