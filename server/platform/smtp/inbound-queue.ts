import { z } from 'zod';
import { jobType, type JobSender } from '../job-sender';

/** The job that hands a stored message to the capability it was addressed to (server/process-inbound.job.ts runs it). */
export const processInboundJobType = jobType(
  'process-inbound-message',
  z.object({ messageId: z.number().int().positive() }),
);

/** Queues processing of a stored message; one job per message however often it is queued. */
export function queueInboundProcessing(jobs: JobSender, messageId: number): Promise<void> {
  return jobs.send(processInboundJobType, { messageId }, { singletonKey: `inbound-${messageId}` });
}
