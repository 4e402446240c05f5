import { daysAgo } from '@contracts/utc-day';
import { defineRunner } from '../platform/queue/job';
import { findDomainForRegistration, saveRegistration } from '../domains/domain-reputation.service';
import { lookUpDomainRegistrationJob } from './look-up-domain-registration.job';
import { lookUpRegistration } from './rdap';
import { REFRESH_DAYS } from './registration-refresh';

/** Fills one domain's registrar and registration date from RDAP; rdapCheckedAt is set even when RDAP said nothing. */
export const lookUpDomainRegistrationRunner = defineRunner(lookUpDomainRegistrationJob, {
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
