import { z } from 'zod';
import { jobType, type JobSender } from '../platform/job-sender';

/** Re-checks one domain's DNS. */
export const checkDomainJob = jobType('check-domain', z.object({ domainId: z.number().int().positive() }));

/** Queues one domain's check, keyed by the domain as the hourly round has always queued it. */
export async function queueDomainCheck(jobs: JobSender, domainId: number): Promise<void> {
  await jobs.send(checkDomainJob, { domainId }, { singletonKey: `domain-${domainId}` });
}
