import { z } from 'zod';
import { jobType } from '../job-sender';

/** Delivers one outbox mail (send-email.runner.ts runs it): send it after the mail's transaction commits. */
export const sendEmailJob = jobType('send-email', z.object({ outboxId: z.number().int().positive() }));
