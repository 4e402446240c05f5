import { sql } from 'drizzle-orm';
import type { RetentionPurge } from '../platform/db/retention-purge';
import { dmarcReceivedFiles, dmarcReports, dmarcSourceDays } from '../platform/db/schema/index';

/** Data retention (ADR 032): aggregate reports and the per-day source figures past the plan's history. */
export const dmarcRetention: RetentionPurge[] = [
  {
    // By the period the report covers (its import time when it could not be read); its records cascade, up to
    // thousands each, so the batch is small.
    table: dmarcReports,
    batch: 100,
    older: ({ at }) => sql`coalesce(date_end, created_at) < ${at}::timestamptz`,
  },
  // A file kept as received with its failed imports goes when they do: they were stored at the same moment. Up to
  // 10 MB each, so the batch is smaller still.
  { table: dmarcReceivedFiles, batch: 10, older: ({ at }) => sql`created_at < ${at}::timestamptz` },
  // No id column: batches by physical row address, found through the primary key (user_id, day, ...).
  { table: dmarcSourceDays, batch: 5000, rowKey: 'ctid', older: ({ day }) => sql`day < ${day}::date` },
];
