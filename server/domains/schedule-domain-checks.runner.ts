import { listDomainIds } from './domains.repo';
import { defineRunner } from '../platform/queue/job';
import { queueDomainCheck } from './check-domain.job';
import { scheduleDomainChecksJob } from './schedule-domain-checks.job';

/** Every hour, one check-domain job per domain, so many workers can share the checks. */
export const scheduleDomainChecksRunner = defineRunner(scheduleDomainChecksJob, {
  schedule: '0 * * * *',
  async run(_data, { db, jobs, log }) {
    const ids = await listDomainIds(db);
    for (const id of ids) await queueDomainCheck(jobs, id);
    log.info({ domains: ids.length }, 'domain checks queued');
  },
});
