import { sql } from 'drizzle-orm';
import type { RetentionPurge } from '../platform/db/retention-purge';
import { deliveryEvents, emailMetrics } from '../platform/db/schema/index';

/** Data retention (ADR 032): delivery events and daily sending figures past the plan's history. */
export const deliveryEventsRetention: RetentionPurge[] = [
  { table: deliveryEvents, batch: 5000, older: ({ at }) => sql`occurred_at < ${at}::timestamptz` },
  { table: emailMetrics, batch: 5000, older: ({ day }) => sql`date < ${day}::date` },
];
