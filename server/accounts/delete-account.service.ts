import { deleteUserDeliveryEvents } from '../delivery-events/delivery-events.service';
import { userTestMessages } from '../inbox-tests/inbox-tests.service';
import type { Db } from '../platform/db/client';
import { forgetCachedUser } from '../platform/http/session';
import { deleteUserMail } from '../platform/mail/outbox.repo';
import { deleteUserCounters } from '../platform/security/rate-limits.repo';
import { deleteUserInboundMessages } from '../platform/smtp/inbound.repo';
import { deleteUserRow, lockUser } from './users.repo';

/**
 * Removes the user and every row they own, in one transaction (ADR 027). What each table does:
 *
 * - ON DELETE CASCADE from users (deleting the user row is enough): sessions, auth_tokens, domains,
 *   dmarc_reports (and their dmarc_records), dmarc_source_days, dmarc_reporter_alerts, inbox_tests
 *   (and their placements and reports), integrations, email_metrics, ip_addresses, blocklist_results,
 *   blocklist_listings, blocklist_ignores, reputation_runs, alerts, alert_settings, alert_rules,
 *   alert_notifications, alert_digests, webhooks, webhook_deliveries, api_keys, webhook_tokens, idempotency_keys,
 *   postmaster_stats, google_oauth_states, the timeline's domain_notes, domain_dns_changes, integration_errors and
 *   drop_alerts, billing_subscriptions (the Stripe subscription itself is canceled
 *   first, by the route: billing endBillingOf). Kept: billing_coupons and stripe_events, the operator's and Stripe's,
 * holding nothing of the user.
 * - Deleted here, since they do not cascade: delivery_events (no foreign key: ADR 029), the outbox (its user_id is SET
 * NULL so an operator's   record of sent mail outlived the user; it must not keep the address), rate-limit counters
 * named   after the user or their address (the API quota's "api-hour:<id>" and the MTA batches' "mta-events-user:<id>"
 * among them), and inbound messages that were the user's (inbox-test mail, mail   from their address, report mails
 * whose log names them).
 * - Kept, holding nothing of the user: seed_mailboxes (the operator's network), rate-limit counters per
 *   IP address, inbound mail that never reached the user. Jobs in pg-boss carry numeric ids only
 *   (userId, domainId, outboxId...; ids are never reused): one still queued finds nothing, and a write
 *   it tries for the user fails on the foreign key, so no row comes back.
 *
 * The test lists every table of the database afterwards, so a table added later that keeps the user's
 * id, address or name fails it until it is listed here or cascades.
 */
export async function deleteAccount(db: Db, userId: number): Promise<void> {
  await db.transaction(async (tx) => {
    const user = await lockUser(tx, userId);
    if (!user) return;
    await deleteUserDeliveryEvents(tx, user.id);
    const { testIds, messageIds } = await userTestMessages(tx, user.id);
    await deleteUserInboundMessages(tx, { id: user.id, email: user.email, testIds, testMessageIds: messageIds });
    await deleteUserMail(tx, user.id, user.email);
    await deleteUserCounters(tx, user.id, user.email);
    await deleteUserRow(tx, user.id);
  });
  // Every process hears the deletion from the users and sessions triggers (ADR 014); this one drops it now.
  forgetCachedUser(db, userId);
}
