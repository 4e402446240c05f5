import { sql } from 'drizzle-orm';
import type { RetentionPurge } from '../platform/db/retention-purge';
import { alertDigests, alertNotifications, alerts } from '../platform/db/schema/index';

/** Data retention (ADR 032): alerts and what was sent about them, past the plan's history. */
export const alertsRetention: RetentionPurge[] = [
  {
    // Read alerts raised before the cutoff, except a condition still open (it is the live state and updates in
    // place). Unread ones wait to be seen. Their notifications cascade.
    table: alerts,
    batch: 1000,
    older: ({ at }) =>
      sql`created_at < ${at}::timestamptz AND is_read AND NOT (condition_key IS NOT NULL AND resolved_at IS NULL)`,
  },
  {
    // Notifications already handed to a channel; pending ones are still to be sent.
    table: alertNotifications,
    batch: 5000,
    older: ({ at }) => sql`claimed_at IS NOT NULL AND created_at < ${at}::timestamptz`,
  },
  { table: alertDigests, batch: 5000, older: ({ at }) => sql`status <> 'pending' AND created_at < ${at}::timestamptz` },
];
