import { defineRunner } from '../../platform/queue/job';
import { queueAlertEvaluation } from '../evaluate-alerts.job';
import { listEvaluationUserIds } from '../../insights/alert-figures';
import { scheduleAlertEvaluationsJob } from './schedule-alert-evaluations.job';

/**
 * Every hour, an evaluation for every user with something to evaluate: data ages out of its windows
 * (tests after 30 days, reports after 7) with no event, and a day's figures become yesterday's (the
 * rates' window ends yesterday). Every writer of new evidence queues one itself. A quarter past, away
 * from the hourly domain checks.
 */
export const scheduleAlertEvaluationsRunner = defineRunner(scheduleAlertEvaluationsJob, {
  schedule: '15 * * * *',
  async run(_data, { db, jobs, log }) {
    const userIds = await listEvaluationUserIds(db);
    for (const userId of userIds) await queueAlertEvaluation(jobs, userId);
    log.info({ users: userIds.length }, 'alert evaluations queued');
  },
});
