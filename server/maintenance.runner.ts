import { purgeExpiredTokens } from './accounts/auth-tokens.repo';
import { dropOldInboundBodies, findStrandedInbound, purgeOldInbound } from './platform/smtp/inbound.repo';
import { failAbandonedTests } from './inbox-tests/inbox-tests.repo';
import { findStrandedMail, purgeOldOutboxMail } from './platform/mail/outbox.repo';
import { purgeExpiredSessions } from './platform/http/sessions.repo';
import { defineRunner } from './platform/queue/job';
import { maintenanceJob } from './maintenance.job';
import { queueInboundProcessing } from './platform/smtp/process-inbound-message.job';
import { sendEmailJob } from './platform/mail/send-email.job';
import { purgeEndedRateLimits } from './platform/security/rate-limits.repo';
import { purgeExpiredIdempotencyKeys } from './platform/http/idempotency.repo';
import { purgeOldStripeEvents } from './billing/billing.repo';

/**
 * Every minute: drop expired sessions, tokens, rate-limit windows and idempotency keys (kept 24
 * hours), forget delivered mail after 30 days and applied Stripe events after 90, and hand stranded
 * outbox mail back to the sender. Received messages are kept 30 days and the ones whose processing
 * never ran are queued again. Inbox tests whose e-mail never came fail.
 */
export const maintenanceRunner = defineRunner(maintenanceJob, {
  schedule: '* * * * *',
  async run(_data, { db, log, jobs }) {
    const expiredSessions = await purgeExpiredSessions(db);
    const expiredTokens = await purgeExpiredTokens(db);
    await purgeEndedRateLimits(db);
    const expiredIdempotencyKeys = await purgeExpiredIdempotencyKeys(db);
    await purgeOldOutboxMail(db);
    const forgottenStripeEvents = await purgeOldStripeEvents(db);
    const stranded = await findStrandedMail(db);
    for (const outboxId of stranded) {
      await jobs.send(sendEmailJob, { outboxId }, { singletonKey: `outbox-${outboxId}` });
    }
    await purgeOldInbound(db);
    const droppedBodies = await dropOldInboundBodies(db);
    const strandedInbound = await findStrandedInbound(db);
    for (const messageId of strandedInbound) await queueInboundProcessing(jobs, messageId);
    const abandonedTests = await failAbandonedTests(db);
    log.info(
      {
        expiredSessions,
        expiredTokens,
        expiredIdempotencyKeys,
        forgottenStripeEvents,
        requeuedMail: stranded.length,
        requeuedInbound: strandedInbound.length,
        droppedBodies,
        abandonedTests,
      },
      'maintenance done',
    );
  },
});
