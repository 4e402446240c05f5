import { PLAN_LIMITS } from '@contracts/plans';
import { daysAgo } from '@contracts/utc-day';
import { alertsRetention } from './alerts/alerts.retention';
import { deliveryEventsRetention } from './delivery-events/delivery-events.retention';
import { dmarcRetention } from './dmarc/dmarc.retention';
import { domainsRetention } from './domains/domains.retention';
import { inboxTestsRetention } from './inbox-tests/inbox-tests.retention';
import type { Db } from './platform/db/client';
import { runRetentionPurges, type PurgeCounts, type RetentionPurge } from './platform/db/retention-purge';
import { planOf } from './plans/plan-gate.service';
import { usersAfter } from './plans/plan-usage.repo';
import { postmasterRetention } from './postmaster/postmaster.retention';
import { reputationRetention } from './reputation/reputation.retention';
import { timelineRetention } from './timeline/timeline.retention';
import { webhooksRetention } from './webhooks/webhooks.retention';

/*
 * Data retention (ADR 032): the history a user's monitoring produced goes once their plan no longer keeps it;
 * what they configured (domains, IP addresses, integrations, keys, tokens, webhooks, alert settings and rules,
 * billing) and the current state of things (the latest blocklist result per list, an open listing, an alert still
 * open or unread, a pending notification) stays. Each capability says which of its tables' rows are history
 * (<capability>.retention.ts); this list composes them. The test lists every table with a user_id column, so a
 * table added later must be placed in a capability's purges or in KEPT_TABLES before it passes.
 */
export const RETENTION_PURGES: readonly RetentionPurge[] = [
  ...inboxTestsRetention,
  ...dmarcRetention,
  ...deliveryEventsRetention,
  ...postmasterRetention,
  ...reputationRetention,
  ...alertsRetention,
  ...webhooksRetention,
  ...domainsRetention,
  ...timelineRetention,
];

/**
 * Tables with a user_id that retention leaves alone, and why: configuration, current state, or kept by their own
 * rule (the maintenance job, expiry).
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
  esp_webhook_settings: 'configuration',
  esp_webhook_nonces: 'kept 20 minutes: each Mailgun post removes its account’s older signature tokens',
};

const USERS_PER_PAGE = 500;

/**
 * Deletes every user's monitoring data older than their plan keeps it, user by user in short batches. A plan
 * without a retention figure keeps everything. Totals per table.
 */
export async function applyRetention(db: Db, now = new Date()): Promise<PurgeCounts> {
  const totals: PurgeCounts = {};
  for (let after = 0; ;) {
    const page = await usersAfter(db, after, USERS_PER_PAGE);
    for (const user of page) {
      const days = PLAN_LIMITS[planOf(user)].retentionDays;
      if (days === null) continue;
      const counts = await runRetentionPurges(db, RETENTION_PURGES, user.id, daysAgo(days, now));
      for (const [table, n] of Object.entries(counts)) totals[table] = (totals[table] ?? 0) + n;
    }
    if (page.length < USERS_PER_PAGE) return totals;
    after = page[page.length - 1]!.id;
  }
}
