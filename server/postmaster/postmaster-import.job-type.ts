import { z } from 'zod';
import { jobType, type JobSender } from '../platform/job-sender';

/**
 * Importing one user's Gmail figures from Postmaster Tools, as senders know it (the connect callback,
 * the daily schedule, an import that Google asked to wait). The job lives in postmaster-import.job.ts.
 */
export const importPostmasterJobType = jobType(
  'import-google-postmaster',
  z.object({ userId: z.number().int().positive() }),
);

/** One import waits per user ('stately' with the user as key): asking again while one waits adds nothing. */
export async function queuePostmasterImport(
  jobs: JobSender,
  userId: number,
  startAfterSeconds?: number,
): Promise<void> {
  await jobs.send(
    importPostmasterJobType,
    { userId },
    { singletonKey: `google-postmaster-${userId}`, ...(startAfterSeconds ? { startAfterSeconds } : {}) },
  );
}
