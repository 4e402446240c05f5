import type { JobSender } from '../queue/job';

/** The job that hands a stored message to the capability it was addressed to (server/process-inbound.job.ts). */
export const PROCESS_INBOUND_JOB = 'process-inbound-message';

/** Queues processing of a stored message; one job per message however often it is queued. */
export function queueInboundProcessing(jobs: JobSender, messageId: number): Promise<void> {
  return jobs.send(PROCESS_INBOUND_JOB, { messageId }, { singletonKey: `inbound-${messageId}` });
}
