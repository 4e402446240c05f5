import { recheckDomain } from './domain-checks.service';
import { findDomainById } from './domains.repo';
import { defineRunner } from '../platform/queue/job';
import { checkDomainJob } from './check-domain.job';

/** Re-checks one domain's DNS; retried when DNS lookups fail. */
export const checkDomainRunner = defineRunner(checkDomainJob, {
  retryLimit: 3,
  retryDelaySeconds: 60,
  async run({ domainId }, ctx) {
    const row = await findDomainById(ctx.db, domainId);
    if (row) await recheckDomain(ctx, row); // a domain deleted since is simply skipped
  },
});
