import { z } from 'zod';
import { deliverOutboxMail } from '../mail/outbox';
import { defineJob } from './job';

/** Delivers one outbox mail over SMTP; retried with backoff when the SMTP server fails. */
export const sendEmailJob = defineJob({
  name: 'send-email',
  schema: z.object({ outboxId: z.number().int().positive() }),
  retryLimit: 4,
  retryDelaySeconds: 30,
  async run({ outboxId }, { db, mailer, log }) {
    const outcome = await deliverOutboxMail(db, mailer, outboxId);
    log.info({ outboxId, outcome }, 'outbox mail processed');
  },
});
