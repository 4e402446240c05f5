import { sql } from 'drizzle-orm';
import type { RetentionPurge } from '../platform/db/retention-purge';
import { dropAlerts, integrationErrors } from '../platform/db/schema/index';

/** Data retention (ADR 032): the timeline's own history past the plan's history (ADR 035). */
export const timelineRetention: RetentionPurge[] = [
  { table: integrationErrors, batch: 5000, older: ({ at }) => sql`at < ${at}::timestamptz` },
  // A drop raised before the cutoff happened before it too: its evidence is gone, so it cannot be found again.
  { table: dropAlerts, batch: 5000, rowKey: 'ctid', older: ({ at }) => sql`raised_at < ${at}::timestamptz` },
];
