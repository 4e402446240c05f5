import type { Executor } from '../platform/db/client';
import type { JobSender } from '../platform/job-sender';
import { clearRunRequest, markRunRequested } from './blocklist-results.repo';
import { reputationCheckJob } from './reputation-check.job';

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
