import { lt, sql } from 'drizzle-orm';
import { z } from 'zod';
import { authTokens } from './platform/db/schema/index';
import { findStrandedInbound, purgeOldInbound } from './platform/smtp/inbound.repo';
import { failAbandonedTests } from './inbox-tests/inbox-tests.repo';
import { findStrandedMail, purgeOldOutboxMail } from './platform/mail/outbox.repo';
import { purgeExpiredSessions } from './platform/http/sessions.repo';
import { defineJob } from './platform/queue/job';
import { queueInboundProcessing } from './platform/smtp/inbound-queue';
import { sendEmailJob } from './platform/mail/send-email.job';
import { purgeEndedRateLimits } from './platform/security/rate-limits.repo';

/**
 * Every minute: drop expired sessions, tokens and rate-limit windows, forget delivered mail after
 * 30 days, and hand stranded outbox mail back to the sender. Received messages are kept 30 days
 * and the ones whose processing never ran are queued again. Inbox tests whose e-mail never came fail.
 */
export const maintenanceJob = defineJob({
  name: 'maintenance',
  schema: z.object({}).passthrough(),
  schedule: '* * * * *',
  async run(_data, { db, log, jobs }) {
    const expiredSessions = await purgeExpiredSessions(db);
    const expiredTokens = await db
      .delete(authTokens)
      .where(lt(authTokens.expiresAt, sql`now() - interval '1 day'`))
      .returning({ id: authTokens.id });
    await purgeEndedRateLimits(db);
    await purgeOldOutboxMail(db);
    const stranded = await findStrandedMail(db);
    for (const outboxId of stranded) {
      await jobs.send(sendEmailJob, { outboxId }, { singletonKey: `outbox-${outboxId}` });
    }
    await purgeOldInbound(db);
    const strandedInbound = await findStrandedInbound(db);
    for (const messageId of strandedInbound) await queueInboundProcessing(jobs, messageId);
    const abandonedTests = await failAbandonedTests(db);
    log.info(
      { expiredSessions, expiredTokens: expiredTokens.length, requeuedMail: stranded.length, requeuedInbound: strandedInbound.length, abandonedTests },
      'maintenance done',
    );
  },
});
