import { z } from 'zod';
import { raiseStoppedReporterAlerts } from './stopped-reporters';
import { defineJob } from '../platform/queue/job';

/** Every hour: an alert for each daily DMARC reporter that has gone quiet (once per silence). */
export const checkDmarcReportersJob = defineJob({
  name: 'check-dmarc-reporters',
  schema: z.object({}).passthrough(),
  schedule: '15 * * * *',
  async run(_data, { db, log }) {
    const raised = await raiseStoppedReporterAlerts(db);
    log.info({ raised }, 'DMARC reporters checked');
  },
});
