import { z } from 'zod';
import { jobType, type JobSender } from '../../platform/job-sender';

/** Searches the seed mailboxes for the messages of running inbox tests. */
export const pollSeedMailboxesJob = jobType('poll-seed-mailboxes', z.object({}).passthrough());

/** Polls now rather than at the next minute; a round already queued absorbs this one. */
export async function queueSeedPolling(jobs: JobSender): Promise<void> {
  await jobs.send(pollSeedMailboxesJob, {});
}
