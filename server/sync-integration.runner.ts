import { SIGN_IN_PROVIDERS } from './integration-providers';
import { syncIntegration } from './integrations/integrations.service';
import { syncIntegrationJob } from './integrations/sync-integration.job';
import { defineRunner } from './platform/queue/job';

/**
 * One integration's sync. 'stately' with the integration as key: a sync queued while another waits is dropped.
 * A provider's refusal is the sync's outcome, not the job's failure (it is stored and backed off); only our own
 * errors (the database) fail the job and are retried.
 */
export const syncIntegrationRunner = defineRunner(syncIntegrationJob, {
  policy: 'stately',
  retryLimit: 2,
  retryDelaySeconds: 60,
  // A sync mostly waits on the provider's API: several side by side.
  batchSize: 4,
  async run({ integrationId }, ctx) {
    const outcome = await syncIntegration(ctx, integrationId, new Date(), SIGN_IN_PROVIDERS);
    ctx.log.info({ integrationId, ...outcome }, 'integration sync');
  },
});
