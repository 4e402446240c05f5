import { sql } from 'drizzle-orm';
import type { RetentionPurge } from '../platform/db/retention-purge';
import { domainDnsChanges } from '../platform/db/schema/index';

/** Data retention (ADR 032): the record changes the domain checks saw (the timeline's history, ADR 035). */
export const domainsRetention: RetentionPurge[] = [
  { table: domainDnsChanges, batch: 5000, older: ({ at }) => sql`observed_at < ${at}::timestamptz` },
];
