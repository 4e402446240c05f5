import { z } from 'zod';
import { jobType, type JobSender } from '../job-sender';

/**
 * Hands a stored message to the mailbox it was addressed to (server/process-inbound-message.runner.ts
 * runs it): the listener, the report mailbox poller and the maintenance sweep queue it.
 */
export const processInboundMessageJob = jobType(
  'process-inbound-message',
  z.object({ messageId: z.number().int().positive() }),
);

/** Queues processing of a stored message; one job per message however often it is queued. */
export function queueInboundProcessing(jobs: JobSender, messageId: number): Promise<void> {
  return jobs.send(processInboundMessageJob, { messageId }, { singletonKey: `inbound-${messageId}` });
}
