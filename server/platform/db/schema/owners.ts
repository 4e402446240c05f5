/*
 * Who owns each table (ADR 048): the one folder of server/ whose files may query it. `platform` tables are
 * the floor every layer stands on (the account row a session loads, sessions, rate-limit windows, the
 * outbox, stored inbound mail): a capability may use them as it may import the platform. A capability's
 * table is queried only under server/<capability>/; a read across capabilities is a read model in
 * server/insights/. eslint/table-ownership.js reads this map (keep it a plain literal: one `table: 'owner'`
 * a line); schema/owners.test.ts checks that every table has exactly one owner.
 */
export const TABLE_OWNERS = {
  // The tenant row every table hangs off, loaded by the session and the API-key look-up on every request.
  users: 'platform',
  sessions: 'platform',
  rate_limits: 'platform',
  idempotency_keys: 'platform',
  outbox: 'platform',
  inbound_messages: 'platform',
  // The bearer look-up is the platform's (like sessions); the api-keys capability issues and revokes them.
  api_keys: 'platform',

  auth_tokens: 'accounts',

  alerts: 'alerts',
  alert_settings: 'alerts',
  alert_rules: 'alerts',
  alert_notifications: 'alerts',
  alert_digests: 'alerts',

  webhook_tokens: 'api-keys',

  billing_subscriptions: 'billing',
  billing_coupons: 'billing',
  stripe_events: 'billing',

  delivery_events: 'delivery-events',
  // A day's sending figures: MTA events are counted into it here; ESP statistics are synced into it too.
  email_metrics: 'delivery-events',
  // The ESP event webhooks' secrets and the replay tokens they saw (esp-webhooks/).
  esp_webhook_settings: 'delivery-events',
  esp_webhook_nonces: 'delivery-events',

  dmarc_received_files: 'dmarc',
  dmarc_reports: 'dmarc',
  dmarc_records: 'dmarc',
  dmarc_reporter_alerts: 'dmarc',
  dmarc_source_days: 'dmarc',
  sending_service_networks: 'dmarc',

  domains: 'domains',
  // Written by the domain check, which is where a change is seen.
  domain_dns_changes: 'domains',

  inbox_tests: 'inbox-tests',
  inbox_test_reports: 'inbox-tests',
  inbox_test_placements: 'inbox-tests',
  seed_mailboxes: 'inbox-tests',

  integrations: 'integrations',

  email_quota_refusals: 'plans',

  postmaster_stats: 'postmaster',
  google_oauth_states: 'postmaster',

  ip_addresses: 'reputation',
  blocklist_results: 'reputation',
  blocklist_listings: 'reputation',
  blocklist_ignores: 'reputation',
  reputation_runs: 'reputation',

  domain_notes: 'timeline',
  integration_errors: 'timeline',
  drop_alerts: 'timeline',

  webhooks: 'webhooks',
  webhook_deliveries: 'webhooks',
} as const;

export type TableOwner = (typeof TABLE_OWNERS)[keyof typeof TABLE_OWNERS];
