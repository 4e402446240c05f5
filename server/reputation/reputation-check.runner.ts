import { defineRunner } from '../platform/queue/job';
import { reputationCheckJob } from './reputation-check.job';
import { runReputationCheck } from './reputation-run.service';

/**
 * One user's blocklist and reputation check. 'stately' with the user as key: a check queued while
 * another waits is dropped; the run itself also refuses to start beside a live one (claimRun).
 */
export const reputationCheckRunner = defineRunner(reputationCheckJob, {
  policy: 'stately',
  retryLimit: 2,
  retryDelaySeconds: 30,
  // A run mostly waits on DNS (bounded by the engine's process-wide limit): several users side by side.
  batchSize: 4,
  async run({ userId }, ctx) {
    await runReputationCheck(ctx, userId);
  },
});
