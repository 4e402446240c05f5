import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import type { ScoreFactor } from '@contracts/reputation';
import { belongsTo } from './columns';
import { domains } from './domains';
import { users } from './users';

/** A sending IP address a user monitors, with the outcome of its last blocklist and reputation check. */
export const ipAddresses = pgTable(
  'ip_addresses',
  {
    id: serial().primaryKey(),
    userId: belongsTo(() => users.id),
    /** Normalised: dotted-quad IPv4 or RFC 5952 IPv6. */
    ipAddress: text().notNull(),
    label: text(),
    type: text({ enum: ['dedicated', 'shared'] }).notNull(),
    associatedDomains: jsonb().$type<string[]>().notNull().default([]),
    status: text({ enum: ['clean', 'caution', 'warning', 'blocked', 'critical', 'pending', 'unknown'] })
      .notNull()
      .default('pending'),
    blacklistCount: integer().notNull().default(0),
    totalProviders: integer().notNull().default(0),
    senderScore: integer(),
    scoreFactors: jsonb().$type<ScoreFactor[]>().notNull().default([]),
    reverseDns: text(),
    reverseDnsConfirmed: boolean(),
    lastChecked: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('ip_addresses_user_ip_key').on(t.userId, t.ipAddress),
    index('ip_addresses_user_idx').on(t.userId, sql`${t.createdAt} DESC`),
  ],
);

/** The latest answer of one list for one monitored IP address or domain (exactly one of the two). */
export const blocklistResults = pgTable(
  'blocklist_results',
  {
    id: serial().primaryKey(),
    userId: belongsTo(() => users.id),
    ipAddressId: integer().references(() => ipAddresses.id, { onDelete: 'cascade' }),
    domainId: integer().references(() => domains.id, { onDelete: 'cascade' }),
    listId: text().notNull(),
    status: text({ enum: ['listed', 'clear', 'unknown'] }).notNull(),
    answers: jsonb().$type<string[]>().notNull().default([]),
    reason: text(),
    txt: text(),
    checkedAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex('blocklist_results_ip_list_key').on(t.ipAddressId, t.listId),
    uniqueIndex('blocklist_results_domain_list_key').on(t.domainId, t.listId),
    check('blocklist_results_one_target', sql`(${t.ipAddressId} IS NULL) <> (${t.domainId} IS NULL)`),
  ],
);

/** When an IP address or domain was on a list: one row per listing, closed when the list drops it. */
export const blocklistListings = pgTable(
  'blocklist_listings',
  {
    id: serial().primaryKey(),
    userId: belongsTo(() => users.id),
    ipAddressId: integer().references(() => ipAddresses.id, { onDelete: 'cascade' }),
    domainId: integer().references(() => domains.id, { onDelete: 'cascade' }),
    listId: text().notNull(),
    listedAt: timestamp({ withTimezone: true }).notNull(),
    delistedAt: timestamp({ withTimezone: true }),
    reason: text(),
  },
  (t) => [
    index('blocklist_listings_ip_idx').on(t.ipAddressId, t.listedAt),
    index('blocklist_listings_domain_idx').on(t.domainId, t.listedAt),
    check('blocklist_listings_one_target', sql`(${t.ipAddressId} IS NULL) <> (${t.domainId} IS NULL)`),
  ],
);

/** Lists a user switched off: still asked and shown, but they count for nothing. */
export const blocklistIgnores = pgTable(
  'blocklist_ignores',
  {
    userId: belongsTo(() => users.id),
    listId: text().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.listId] })],
);

/** A user's reputation checks: when one was asked for, began and ended (GET /api/ip-monitoring/status). */
export const reputationRuns = pgTable('reputation_runs', {
  userId: belongsTo(() => users.id).primaryKey(),
  requestedAt: timestamp({ withTimezone: true }),
  startedAt: timestamp({ withTimezone: true }),
  finishedAt: timestamp({ withTimezone: true }),
  lastError: text(),
});
