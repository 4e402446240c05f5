import { deliverOutboxMail, sendEmailJobType } from './platform/mail/outbox';
import { defineJob } from './platform/queue/job';

/**
 * Delivers one outbox mail over SMTP; retried with backoff when the SMTP server fails. Defined here,
 * above the platform, because a job runs with the whole context; senders use sendEmailJobType.
 */
export const sendEmailJob = defineJob({
  ...sendEmailJobType,
  retryLimit: 4,
  retryDelaySeconds: 5, // with backoff: 5-10 s, 10-20 s, 20-40 s, 40-80 s; then the maintenance sweep
  async run({ outboxId }, { db, mailer, log }) {
    const outcome = await deliverOutboxMail(db, mailer, outboxId);
    log.info({ outboxId, outcome }, 'outbox mail processed');
  },
});
