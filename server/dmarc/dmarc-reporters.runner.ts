import { raiseStoppedReporterAlerts } from './stopped-reporters';
import { defineRunner } from '../platform/queue/job';
import { checkDmarcReportersJob } from './dmarc-reporters.job';

/** Every hour: an alert for each daily DMARC reporter that has gone quiet (once per silence). */
export const checkDmarcReportersRunner = defineRunner(checkDmarcReportersJob, {
  schedule: '15 * * * *',
  async run(_data, { db, log }) {
    const raised = await raiseStoppedReporterAlerts(db);
    log.info({ raised }, 'DMARC reporters checked');
  },
});
