import { sql } from 'drizzle-orm';
import type { RetentionPurge } from '../platform/db/retention-purge';
import { blocklistListings } from '../platform/db/schema/index';

/** Data retention (ADR 032): ended listings only; a listing still running is the current state, however old. */
export const reputationRetention: RetentionPurge[] = [
  { table: blocklistListings, batch: 5000, older: ({ at }) => sql`delisted_at < ${at}::timestamptz` },
];
