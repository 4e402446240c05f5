import { SIGN_IN_PROVIDERS } from './integration-providers';
import { queueDueSyncs } from './integrations/integrations.service';
import { scheduleIntegrationSyncsJob } from './integrations/schedule-integration-syncs.job';
import { defineRunner } from './platform/queue/job';

/** Hourly, at 20 past (away from the jobs that run on the hour): every integration due a sync gets one. */
export const scheduleIntegrationSyncsRunner = defineRunner(scheduleIntegrationSyncsJob, {
  schedule: '20 * * * *',
  async run(_data, ctx) {
    const queued = await queueDueSyncs(ctx, SIGN_IN_PROVIDERS);
    ctx.log.info({ queued }, 'integration syncs queued');
  },
});
