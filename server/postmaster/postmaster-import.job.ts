import { z } from 'zod';
import { defineJob } from '../platform/queue/job';
import { importPostmasterStats } from './postmaster-import';
import { importPostmasterJobType, queuePostmasterImport } from './postmaster-import.job-type';
import { listDueImports } from './postmaster.repo';

/** Daily at 07:40 UTC: Postmaster Tools publishes a day's figures the day after, and revises the days before. */
export const POSTMASTER_IMPORT_SCHEDULE = '40 7 * * *';
/** Users queued by one round; the rest (least recently imported first) wait for the next. */
const MAX_PER_ROUND = 5000;

/**
 * One user's import. Google's refusals are the import's outcome (stored, alerted), not the job's
 * failure; only our own errors (the database) fail the job and are retried.
 */
export const importPostmasterJob = defineJob({
  ...importPostmasterJobType,
  policy: 'stately',
  retryLimit: 2,
  retryDelaySeconds: 300,
  // An import mostly waits on Google: several side by side.
  batchSize: 4,
  async run({ userId }, ctx) {
    const outcome = await importPostmasterStats(ctx, userId);
    ctx.log.info({ userId, ...outcome }, 'Google Postmaster Tools import');
  },
});

export const schedulePostmasterImportsJob = defineJob({
  name: 'schedule-google-postmaster-imports',
  schema: z.object({}).passthrough(),
  schedule: POSTMASTER_IMPORT_SCHEDULE,
  async run(_data, { db, jobs, log }) {
    const due = await listDueImports(db, new Date(), MAX_PER_ROUND);
    for (const userId of due) await queuePostmasterImport(jobs, userId);
    log.info({ queued: due.length }, 'Google Postmaster Tools imports queued');
  },
});

export const postmasterJobs = [importPostmasterJob, schedulePostmasterImportsJob];
