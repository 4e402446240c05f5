import { sql } from 'drizzle-orm';
import type { RetentionPurge } from '../platform/db/retention-purge';
import { webhookDeliveries } from '../platform/db/schema/index';

/** Data retention (ADR 032): finished deliveries only; one still retrying is kept until it ends. */
export const webhooksRetention: RetentionPurge[] = [
  {
    table: webhookDeliveries,
    batch: 5000,
    older: ({ at }) => sql`status IN ('delivered', 'failed') AND created_at < ${at}::timestamptz`,
  },
];
