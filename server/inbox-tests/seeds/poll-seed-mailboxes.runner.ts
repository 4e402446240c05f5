import { queueAlertEvaluation } from '../../alerts/alerts.service';
import { pollSeedMailboxes } from './seed-poll';
import { defineRunner } from '../../platform/queue/job';
import { pollSeedMailboxesJob } from './poll-seed-mailboxes.job';

/**
 * Every minute, and on demand when a test starts running: searches the seed mailboxes for the
 * messages of running inbox tests and completes the tests that are done (server/inbox-tests/seeds/seed-poll.ts).
 */
export const pollSeedMailboxesRunner = defineRunner(pollSeedMailboxesJob, {
  schedule: '* * * * *',
  // The next minute polls again anyway; retrying a failed round would only stack up rounds.
  retryLimit: 0,
  // One round waiting and one running at most: the cron and the on-demand sends share the queue's one key.
  policy: 'stately',
  async run(_data, { db, env, jobs, log }) {
    const summary = await pollSeedMailboxes(db, {
      appSecret: env.APP_SECRET,
      placementWindowMinutes: env.PLACEMENT_WINDOW_MINUTES,
      log,
      onCompleted: (userId) => queueAlertEvaluation(jobs, userId),
    });
    if (summary.polled || summary.completed || summary.removedSeedPlacements)
      log.info(summary, 'Seed mailboxes polled');
  },
});
