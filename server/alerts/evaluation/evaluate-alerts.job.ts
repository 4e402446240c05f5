import { z } from 'zod';
import { defineJob, type AnyJob } from '../../platform/queue/job';
import { evaluateAlertsJobType, queueAlertEvaluation } from '../evaluate-alerts.job-type';
import { evaluateAlerts } from './evaluate-alerts';
import { listEvaluationUserIds } from './evaluation.repo';

/**
 * One user's alert conditions. 'stately' with singletonKey user-<id> (every sender passes it): a
 * burst of data changes makes one evaluation waiting, and one queued while another runs sees what
 * that one missed.
 */
export const evaluateAlertsJob = defineJob({
  ...evaluateAlertsJobType,
  policy: 'stately',
  retryLimit: 3,
  retryDelaySeconds: 10,
  batchSize: 4,
  async run({ userId }, ctx) {
    const summary = await evaluateAlerts(ctx, userId);
    if (summary.raised + summary.escalated + summary.updated + summary.resolved > 0)
      ctx.log.info({ userId, ...summary }, 'alerts evaluated');
  },
});

/**
 * Every hour, an evaluation for every user with something to evaluate: data ages out of its windows
 * (tests after 30 days, reports after 7) with no event, and a day's figures become yesterday's (the
 * rates' window ends yesterday). Every writer of new evidence queues one itself. A quarter past, away
 * from the hourly domain checks.
 */
export const scheduleAlertEvaluationsJob = defineJob({
  name: 'schedule-alert-evaluations',
  schema: z.object({}).passthrough(),
  schedule: '15 * * * *',
  async run(_data, { db, jobs, log }) {
    const userIds = await listEvaluationUserIds(db);
    for (const userId of userIds) await queueAlertEvaluation(jobs, userId);
    log.info({ users: userIds.length }, 'alert evaluations queued');
  },
});

/** The evaluation jobs, for the registry. */
export const alertEvaluationJobs: AnyJob[] = [evaluateAlertsJob, scheduleAlertEvaluationsJob];
