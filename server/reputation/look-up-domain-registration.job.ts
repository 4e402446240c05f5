import { z } from 'zod';
import { jobType, type JobSender } from '../platform/job-sender';

/** Fills one domain's registrar and registration date from RDAP. */
export const lookUpDomainRegistrationJob = jobType(
  'look-up-domain-registration',
  z.object({ domainId: z.number().int().positive() }),
);

export function requestRegistrationLookUp(jobs: JobSender, domainId: number): Promise<void> {
  return jobs.send(lookUpDomainRegistrationJob, { domainId }, { singletonKey: `rdap-domain-${domainId}` });
}
