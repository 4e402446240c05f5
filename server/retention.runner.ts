import { applyRetention } from './data-retention';
import { defineRunner } from './platform/queue/job';
import { retentionJob } from './retention.job';

/** Once a day, at a quiet hour (UTC): every user's monitoring data past their plan's history goes (ADR 032). */
export const retentionRunner = defineRunner(retentionJob, {
  schedule: '17 3 * * *',
  async run(_data, { db, log }) {
    const deleted = await applyRetention(db);
    log.info({ deleted }, 'data retention done');
  },
});
