import { z } from 'zod';
import { jobType, type JobSender } from '../platform/job-sender';

/**
 * One integration's sync: an ESP plugin's figures, or the import of a provider the user signed in to (Google
 * Postmaster Tools). Queued by an install, a change, Sync now, a connect and the hourly round; the runner is
 * server/sync-integration.runner.ts.
 */
export const syncIntegrationJob = jobType('sync-integration', z.object({ integrationId: z.number().int().positive() }));

/** One sync waits per integration ('stately' with the integration as key): asking again while one waits adds nothing. */
export async function queueIntegrationSync(jobs: JobSender, integrationId: number): Promise<void> {
  await jobs.send(syncIntegrationJob, { integrationId }, { singletonKey: `integration-${integrationId}` });
}
