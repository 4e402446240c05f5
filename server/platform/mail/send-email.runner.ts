import { defineRunner } from '../queue/job';
import { deliverOutboxMail } from './outbox';
import { sendEmailJob } from './send-email.job';

/** Delivers one outbox mail over SMTP; retried with backoff when the SMTP server fails. */
export const sendEmailRunner = defineRunner(sendEmailJob, {
  retryLimit: 4,
  retryDelaySeconds: 5, // with backoff: 5-10 s, 10-20 s, 20-40 s, 40-80 s; then the maintenance sweep
  async run({ outboxId }, { db, mailer, log }) {
    const outcome = await deliverOutboxMail(db, mailer, outboxId);
    log.info({ outboxId, outcome }, 'outbox mail processed');
  },
});
