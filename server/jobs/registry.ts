import { checkDmarcReportersJob } from './dmarc-reporters.job';
import { checkDomainJob, scheduleDomainChecksJob } from './domain-checks.job';
import type { JobDefinition } from './job';
import { maintenanceJob } from './maintenance.job';
import { pollDmarcMailboxJob } from './poll-dmarc-mailbox.job';
import { pollSeedMailboxesJob } from './poll-seed-mailboxes.job';
import { processInboundJob } from './process-inbound.job';
import { sendEmailJob } from './send-email.job';

/** Every job the worker runs. A new job is one file and one line here. */
export const jobRegistry: JobDefinition<any>[] = [sendEmailJob, maintenanceJob, checkDomainJob, scheduleDomainChecksJob, checkDmarcReportersJob, processInboundJob, pollDmarcMailboxJob, pollSeedMailboxesJob];
