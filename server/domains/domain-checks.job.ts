import { z } from 'zod';
import { recheckDomain } from './domain-checks.service';
import { findDomainById, listDomainIds } from './domains.repo';
import { defineJob } from '../platform/queue/job';

/** Re-checks one domain's DNS; retried when DNS lookups fail. */
export const checkDomainJob = defineJob({
  name: 'check-domain',
  schema: z.object({ domainId: z.number().int().positive() }),
  retryLimit: 3,
  retryDelaySeconds: 60,
  async run({ domainId }, ctx) {
    const row = await findDomainById(ctx.db, domainId);
    if (row) await recheckDomain(ctx, row); // a domain deleted since is simply skipped
  },
});

/** Every hour, one check-domain job per domain, so many workers can share the checks. */
export const scheduleDomainChecksJob = defineJob({
  name: 'schedule-domain-checks',
  schema: z.object({}).passthrough(),
  schedule: '0 * * * *',
  async run(_data, { db, jobs, log }) {
    const ids = await listDomainIds(db);
    for (const id of ids) await jobs.send(checkDomainJob, { domainId: id }, { singletonKey: `domain-${id}` });
    log.info({ domains: ids.length }, 'domain checks queued');
  },
});
