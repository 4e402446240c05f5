import { z } from 'zod';
import type { JobSender } from '../platform/job-sender';
import { defineJob } from '../platform/queue/job';
import { syncIntegration } from './integration-sync';
import { listDueIntegrations } from './integrations.repo';
import { PROVIDERS } from './providers/index';

/** Hourly, at 20 past (away from the jobs that run on the hour): every integration due a sync gets one. */
export const INTEGRATION_SYNC_SCHEDULE = '20 * * * *';
/** Integrations queued by one round; the rest wait for the next (they are taken least recently synced first). */
const MAX_PER_ROUND = 5000;

/**
 * One integration's sync. 'stately' with the integration as key: a sync queued while another waits
 * is dropped. A provider's refusal is the sync's outcome, not the job's failure (it is stored and
 * backed off); only our own errors (the database) fail the job and are retried.
 */
export const syncIntegrationJob = defineJob({
  name: 'sync-integration',
  schema: z.object({ integrationId: z.number().int().positive() }),
  policy: 'stately',
  retryLimit: 2,
  retryDelaySeconds: 60,
  // A sync mostly waits on the provider's API: several side by side.
  batchSize: 4,
  async run({ integrationId }, ctx) {
    const outcome = await syncIntegration(ctx, integrationId);
    ctx.log.info({ integrationId, ...outcome }, 'integration sync');
  },
});

export async function queueIntegrationSync(jobs: JobSender, integrationId: number): Promise<void> {
  await jobs.send(syncIntegrationJob, { integrationId }, { singletonKey: `integration-${integrationId}` });
}

export const scheduleIntegrationSyncsJob = defineJob({
  name: 'schedule-integration-syncs',
  schema: z.object({}).passthrough(),
  schedule: INTEGRATION_SYNC_SCHEDULE,
  async run(_data, { db, jobs, log }) {
    const due = await listDueIntegrations(db, Object.keys(PROVIDERS), new Date(), MAX_PER_ROUND);
    for (const { id } of due) await queueIntegrationSync(jobs, id);
    log.info({ queued: due.length }, 'integration syncs queued');
  },
});

export const integrationJobs = [syncIntegrationJob, scheduleIntegrationSyncsJob];
