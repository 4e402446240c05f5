import { asc, gt, sql, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../platform/db/client';
import {
  alertDigests,
  alertNotifications,
  alerts,
  blocklistListings,
  deliveryEvents,
  dmarcReports,
  domainDnsChanges,
  dropAlerts,
  dmarcSourceDays,
  emailMetrics,
  inboxTests,
  integrationErrors,
  postmasterStats,
  users,
  webhookDeliveries,
} from '../platform/db/schema/index';

/*
 * Data retention (ADR 032): which tables hold monitoring data a plan keeps for a number of days, and
 * which of their rows are old. One list, in one place, read table by table: the history a user's
 * monitoring produced goes; what they configured (domains, IP addresses, integrations, keys, tokens,
 * webhooks, alert settings and rules, billing) and the current state of things (the latest blocklist
 * result per list, an open listing, an alert still open or unread, a pending notification) stays.
 * The test lists every table with a user_id column, so a table added later must be placed here or in
 * KEPT_TABLES before it passes.
 */

interface Purge {
  table: string;
  /** Rows deleted per statement: each statement is its own short transaction. */
  batch: number;
  /** One batch: deletes at most `batch` of the user's rows older than the cutoff, returns how many. */
  statement(userId: number, cutoff: string, cutoffDay: string, batch: number): SQL;
}

/** A batch by primary key id. */
const byId = (table: PgTable, older: SQL) => (userId: number, batch: number) =>
  sql`DELETE FROM ${table} WHERE id IN (SELECT id FROM ${table} WHERE user_id = ${userId} AND ${older} LIMIT ${batch})`;

export const PURGED: Purge[] = [
  {
    // A test's placements and report go with it (ON DELETE CASCADE).
    table: 'inbox_tests',
    batch: 500,
    statement: (u, cutoff, _day, batch) => byId(inboxTests, sql`created_at < ${cutoff}::timestamptz`)(u, batch),
  },
  {
    // By the period the report covers (its import time when it could not be read); its records cascade,
    // up to thousands each, so the batch is small.
    table: 'dmarc_reports',
    batch: 100,
    statement: (u, cutoff, _day, batch) =>
      byId(dmarcReports, sql`coalesce(date_end, created_at) < ${cutoff}::timestamptz`)(u, batch),
  },
  {
    // No id column: batches by physical row address, found through the primary key (user_id, day, ...).
    table: 'dmarc_source_days',
    batch: 5000,
    statement: (u, _cutoff, day, batch) =>
      sql`DELETE FROM ${dmarcSourceDays} WHERE ctid = ANY(ARRAY(SELECT ctid FROM ${dmarcSourceDays} WHERE user_id = ${u} AND day < ${day}::date LIMIT ${batch}))`,
  },
  {
    table: 'delivery_events',
    batch: 5000,
    statement: (u, cutoff, _day, batch) => byId(deliveryEvents, sql`occurred_at < ${cutoff}::timestamptz`)(u, batch),
  },
  {
    table: 'email_metrics',
    batch: 5000,
    statement: (u, _cutoff, day, batch) => byId(emailMetrics, sql`date < ${day}::date`)(u, batch),
  },
  {
    table: 'postmaster_stats',
    batch: 5000,
    statement: (u, _cutoff, day, batch) => byId(postmasterStats, sql`date < ${day}::date`)(u, batch),
  },
  {
    // Ended listings only: a listing still running is the current state, however old.
    table: 'blocklist_listings',
    batch: 5000,
    statement: (u, cutoff, _day, batch) => byId(blocklistListings, sql`delisted_at < ${cutoff}::timestamptz`)(u, batch),
  },
  {
    // Read alerts raised before the cutoff, except a condition still open (it is the live state and
    // updates in place). Unread ones wait to be seen. Their notifications cascade.
    table: 'alerts',
    batch: 1000,
    statement: (u, cutoff, _day, batch) =>
      byId(
        alerts,
        sql`created_at < ${cutoff}::timestamptz AND is_read AND NOT (condition_key IS NOT NULL AND resolved_at IS NULL)`,
      )(u, batch),
  },
  {
    // Notifications already handed to a channel; pending ones are still to be sent.
    table: 'alert_notifications',
    batch: 5000,
    statement: (u, cutoff, _day, batch) =>
      byId(alertNotifications, sql`claimed_at IS NOT NULL AND created_at < ${cutoff}::timestamptz`)(u, batch),
  },
  {
    table: 'alert_digests',
    batch: 5000,
    statement: (u, cutoff, _day, batch) =>
      byId(alertDigests, sql`status <> 'pending' AND created_at < ${cutoff}::timestamptz`)(u, batch),
  },
  {
    // Finished deliveries only; one still retrying is kept until it ends.
    table: 'webhook_deliveries',
    batch: 5000,
    statement: (u, cutoff, _day, batch) =>
      byId(webhookDeliveries, sql`status IN ('delivered', 'failed') AND created_at < ${cutoff}::timestamptz`)(u, batch),
  },
  {
    // The timeline's history (ADR 035): record changes seen by the domain checks, integration errors.
    table: 'domain_dns_changes',
    batch: 5000,
    statement: (u, cutoff, _day, batch) => byId(domainDnsChanges, sql`observed_at < ${cutoff}::timestamptz`)(u, batch),
  },
  {
    table: 'integration_errors',
    batch: 5000,
    statement: (u, cutoff, _day, batch) => byId(integrationErrors, sql`at < ${cutoff}::timestamptz`)(u, batch),
  },
  {
    // A drop raised before the cutoff happened before it too: its evidence is gone, so it cannot be found again.
    table: 'drop_alerts',
    batch: 5000,
    statement: (u, cutoff, _day, batch) =>
      sql`DELETE FROM ${dropAlerts} WHERE ctid = ANY(ARRAY(SELECT ctid FROM ${dropAlerts} WHERE user_id = ${u} AND raised_at < ${cutoff}::timestamptz LIMIT ${batch}))`,
  },
];

/**
 * Tables with a user_id that retention leaves alone, and why: configuration, current state, or kept
 * by their own rule (the maintenance job, expiry).
 */
export const KEPT_TABLES: Record<string, string> = {
  sessions: 'expire on their own (maintenance job)',
  auth_tokens: 'expire on their own (maintenance job)',
  api_keys: 'configuration',
  webhook_tokens: 'configuration',
  idempotency_keys: 'kept 24 hours (maintenance job)',
  outbox: 'sent mail is forgotten after 30 days (maintenance job)',
  domains: 'configuration',
  ip_addresses: 'configuration',
  integrations: 'configuration',
  email_quota_refusals:
    'current state: one row per source, the current month’s refusals, started again by the next month’s first (ADR 043)',
  webhooks: 'configuration',
  alert_settings: 'configuration',
  alert_rules: 'configuration',
  blocklist_ignores: 'configuration',
  blocklist_results: 'current state: the latest answer of each list, replaced at every check',
  reputation_runs: 'current state: the last monitoring run',
  dmarc_reporter_alerts: 'current state: when each reporter last sent a report (stopped-reporter alerts)',
  google_oauth_states: 'expire within minutes',
  billing_subscriptions: 'billing records',
  domain_notes: 'the user’s own words on their timeline',
};

export type PurgeCounts = Record<string, number>;

/** Deletes the user's monitoring data older than `cutoff`, table by table, in short batches. How many rows per table. */
export async function purgeMonitoringData(db: Db, userId: number, cutoff: Date): Promise<PurgeCounts> {
  const at = cutoff.toISOString();
  const day = at.slice(0, 10);
  const counts: PurgeCounts = {};
  for (const purge of PURGED) {
    let total = 0;
    for (;;) {
      const result = await db.execute(purge.statement(userId, at, day, purge.batch));
      const deleted = result.rowCount ?? 0;
      total += deleted;
      if (deleted < purge.batch) break;
    }
    if (total > 0) counts[purge.table] = total;
  }
  return counts;
}

/** A page of users and their stored plans, by id after `afterId`. */
export async function usersAfter(
  db: Db,
  afterId: number,
  limit: number,
): Promise<{ id: number; subscriptionPlan: string }[]> {
  return db
    .select({ id: users.id, subscriptionPlan: users.subscriptionPlan })
    .from(users)
    .where(gt(users.id, afterId))
    .orderBy(asc(users.id))
    .limit(limit);
}
