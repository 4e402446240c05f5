import { daysAgo } from '@contracts/utc-day';
import { z } from 'zod';
import { defineJob } from '../platform/queue/job';
import type { JobSender } from '../platform/job-sender';
import { domainsDueForRegistration, findDomainForRegistration, saveRegistration } from './ip-addresses.repo';
import { lookUpRegistration } from './rdap';

/** A registration changes hands rarely: a month between look-ups is plenty. */
const REFRESH_DAYS = 30;
/** Domains looked up per daily run; the rest wait for the next days. */
const BATCH = 100;

/** Fills one domain's registrar and registration date from RDAP; rdapCheckedAt is set even when RDAP said nothing. */
export const lookUpDomainRegistrationJob = defineJob({
  name: 'look-up-domain-registration',
  schema: z.object({ domainId: z.number().int().positive() }),
  // Every send names its domain: one look-up waits per domain, however often the screen asks.
  policy: 'stately',
  async run({ domainId }, { db, env, log }) {
    const found = await findDomainForRegistration(db, domainId);
    if (!found) return; // deleted since
    // Queued again while the last one ran (the screen asks until it sees the answer): that one answered.
    if (found.rdapCheckedAt && found.rdapCheckedAt.getTime() > daysAgo(REFRESH_DAYS).getTime()) return;
    await saveRegistration(db, domainId, await lookUpRegistration(found.domain, { baseUrl: env.RDAP_BASE_URL, log }));
  },
});

export function requestRegistrationLookUp(jobs: JobSender, domainId: number): Promise<void> {
  return jobs.send(lookUpDomainRegistrationJob, { domainId }, { singletonKey: `rdap-domain-${domainId}` });
}

/** Daily: domains never looked up or looked up more than REFRESH_DAYS ago, a bounded batch at a time. */
export const scheduleDomainRegistrationsJob = defineJob({
  name: 'schedule-domain-registrations',
  schema: z.object({}).passthrough(),
  schedule: '20 4 * * *',
  async run(_data, { db, jobs, log }) {
    const ids = await domainsDueForRegistration(db, daysAgo(REFRESH_DAYS), BATCH);
    for (const id of ids) await requestRegistrationLookUp(jobs, id);
    log.info({ domains: ids.length }, 'RDAP look-ups queued');
  },
});
