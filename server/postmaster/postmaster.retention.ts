import { sql } from 'drizzle-orm';
import type { RetentionPurge } from '../platform/db/retention-purge';
import { postmasterStats } from '../platform/db/schema/index';

/** Data retention (ADR 032): Postmaster Tools' daily figures past the plan's history. */
export const postmasterRetention: RetentionPurge[] = [
  { table: postmasterStats, batch: 5000, older: ({ day }) => sql`date < ${day}::date` },
];
