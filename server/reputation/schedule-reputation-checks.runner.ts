import { defineRunner } from '../platform/queue/job';
import { listMonitoringUserIds } from './blocklist-results.repo';
import { requestReputationCheck } from './reputation-check';
import { MONITORING_SCHEDULE, scheduleReputationChecksJob } from './schedule-reputation-checks.job';

/** Every 2 hours, one check per user who monitors an IP or has a domain. */
export const scheduleReputationChecksRunner = defineRunner(scheduleReputationChecksJob, {
  schedule: MONITORING_SCHEDULE,
  async run(_data, { db, jobs, log }) {
    const userIds = await listMonitoringUserIds(db);
    let queued = 0;
    for (const userId of userIds) if (await requestReputationCheck(db, jobs, userId)) queued++;
    log.info({ users: userIds.length, queued }, 'reputation checks queued');
  },
});
