import { daysAgo } from '@contracts/utc-day';
import { defineRunner } from '../platform/queue/job';
import { domainsDueForRegistration } from '../domains/domain-reputation.service';
import { requestRegistrationLookUp } from './look-up-domain-registration.job';
import { REFRESH_DAYS } from './registration-refresh';
import { scheduleDomainRegistrationsJob } from './schedule-domain-registrations.job';

/** Domains looked up per daily run; the rest wait for the next days. */
const BATCH = 100;

/** Daily: domains never looked up or looked up more than REFRESH_DAYS ago, a bounded batch at a time. */
export const scheduleDomainRegistrationsRunner = defineRunner(scheduleDomainRegistrationsJob, {
  schedule: '20 4 * * *',
  async run(_data, { db, jobs, log }) {
    const ids = await domainsDueForRegistration(db, daysAgo(REFRESH_DAYS), BATCH);
    for (const id of ids) await requestRegistrationLookUp(jobs, id);
    log.info({ domains: ids.length }, 'RDAP look-ups queued');
  },
});
