import { index, pgTable, primaryKey, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { belongsTo } from './columns';
import { domains } from './domains';
import { integrations } from './integrations';
import { users } from './users';

/*
 * History the deliverability timeline (ADR 035) needs and no other table keeps: the other evidence
 * (inbox tests, DMARC source days, blocklist listings, email metrics, Postmaster days) is already a
 * history of its own. Each table here is append-only, written where the app observes the value, and
 * only when it differs from the last one seen, so it grows with changes, not with checks.
 */

/**
 * A DNS record of a domain that changed between two checks (SPF, DKIM, DMARC, MX), or whose check
 * started or stopped failing. Written by the domain check (server/domains), never at a domain's
 * first check, which has nothing to compare with.
 */
export const domainDnsChanges = pgTable(
  'domain_dns_changes',
  {
    id: serial().primaryKey(),
    userId: belongsTo(() => users.id),
    domainId: belongsTo(() => domains.id),
    record: text({ enum: ['spf', 'dkim', 'dmarc', 'mx'] }).notNull(),
    /** The record as published before and after (DKIM: one line per selector, keys by fingerprint; MX: "10 mx1.example.com"). */
    before: text(),
    after: text(),
    /** The check's verdict before and after (valid, invalid, missing). */
    statusBefore: text(),
    statusAfter: text(),
    /** What changed, in words ("~all became -all"). */
    summary: text().notNull(),
    observedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('domain_dns_changes_domain_idx').on(t.domainId, t.observedAt),
    index('domain_dns_changes_user_idx').on(t.userId),
  ],
);

/** The user's own notes on a domain's timeline ("switched ESP", "new campaign"). */
export const domainNotes = pgTable(
  'domain_notes',
  {
    id: serial().primaryKey(),
    userId: belongsTo(() => users.id),
    domainId: belongsTo(() => domains.id),
    /** When what the note says happened (the user may date it in the past). */
    at: timestamp({ withTimezone: true }).notNull(),
    text: text().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('domain_notes_domain_idx').on(t.domainId, t.at), index('domain_notes_user_idx').on(t.userId)],
);

/**
 * Each change of an integration's last error: a new error (error set) or a recovery (error null).
 * Written by a trigger on integrations.last_error (migration 0022), since two capabilities write that
 * column (the ESP sync and the Postmaster import) and every writer must be heard.
 */
export const integrationErrors = pgTable(
  'integration_errors',
  {
    id: serial().primaryKey(),
    userId: belongsTo(() => users.id),
    integrationId: belongsTo(() => integrations.id),
    provider: text().notNull(),
    error: text(),
    at: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('integration_errors_user_idx').on(t.userId, t.at),
    index('integration_errors_integration_idx').on(t.integrationId),
  ],
);

/** The drops an alert was raised for: one alert per drop, even after the alert itself is deleted. */
export const dropAlerts = pgTable(
  'drop_alerts',
  {
    userId: belongsTo(() => users.id),
    domainId: belongsTo(() => domains.id),
    /** The drop's id in the diagnosis ("placement:gmail@2024-03-03T10:00:00.000Z"). */
    dropId: text().notNull(),
    raisedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.domainId, t.dropId] }), index('drop_alerts_user_idx').on(t.userId)],
);
