import { z } from 'zod';
import type { Executor } from '../platform/db/client';
import type { JobSender } from '../platform/job-sender';
import { defineJob } from '../platform/queue/job';
import { clearRunRequest, listMonitoringUserIds, markRunRequested } from './blocklist-results.repo';
import { runReputationCheck } from './reputation-run.service';

/** Part 2, section 9: checks every 2 hours. nextRun in the status is read from this. */
export const MONITORING_SCHEDULE = '0 */2 * * *';
export const MONITORING_INTERVAL_HOURS = 2;

/**
 * One user's blocklist and reputation check. 'stately' with the user as key: a check queued while
 * another waits is dropped; the run itself also refuses to start beside a live one (claimRun).
 */
export const reputationCheckJob = defineJob({
  name: 'reputation-check',
  schema: z.object({ userId: z.number().int().positive() }),
  policy: 'stately',
  retryLimit: 2,
  retryDelaySeconds: 30,
  // A run mostly waits on DNS (bounded by the engine's process-wide limit): several users side by side.
  batchSize: 4,
  async run({ userId }, ctx) {
    await runReputationCheck(ctx, userId);
  },
});

/**
 * Asks for a check of the user's IPs and domains (on Refresh Monitoring and on the schedule: false
 * when one is already queued or going, so it is not run twice). `newTargets` after adding IPs: a
 * run going now read the IPs before them, so one more run follows it.
 */
export async function requestReputationCheck(
  db: Executor,
  jobs: JobSender,
  userId: number,
  options: { newTargets?: boolean } = {},
): Promise<boolean> {
  if (!(await markRunRequested(db, userId, options.newTargets ? 'follow' : 'skip'))) return false;
  try {
    await jobs.send(reputationCheckJob, { userId }, { singletonKey: `user-${userId}` });
  } catch (err) {
    // Not queued: the user must not see a run going that never comes.
    await clearRunRequest(db, userId);
    throw err;
  }
  return true;
}

/** Every 2 hours, one check per user who monitors an IP or has a domain. */
export const scheduleReputationChecksJob = defineJob({
  name: 'schedule-reputation-checks',
  schema: z.object({}).passthrough(),
  schedule: MONITORING_SCHEDULE,
  async run(_data, { db, jobs, log }) {
    const userIds = await listMonitoringUserIds(db);
    let queued = 0;
    for (const userId of userIds) if (await requestReputationCheck(db, jobs, userId)) queued++;
    log.info({ users: userIds.length, queued }, 'reputation checks queued');
  },
});
