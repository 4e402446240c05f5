import { sql } from 'drizzle-orm';
import type { RetentionPurge } from '../platform/db/retention-purge';
import { inboxTests } from '../platform/db/schema/index';

/** Data retention (ADR 032): tests past the plan's history; a test's placements and report go with it (cascade). */
export const inboxTestsRetention: RetentionPurge[] = [
  { table: inboxTests, batch: 500, older: ({ at }) => sql`created_at < ${at}::timestamptz` },
];
