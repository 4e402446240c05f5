import { lt, sql } from 'drizzle-orm';
import { z } from 'zod';
import { authTokens, outbox, rateLimits, sessions } from '../db/schema/index';
import { findStrandedMail } from '../mail/outbox';
import { defineJob } from './job';
import { sendEmailJob } from './send-email.job';

/**
 * Every minute: drop expired sessions, tokens and rate-limit windows, forget delivered mail after
 * 30 days, and hand stranded outbox mail back to the sender.
 */
export const maintenanceJob = defineJob({
  name: 'maintenance',
  schema: z.object({}).passthrough(),
  schedule: '* * * * *',
  async run(_data, { db, log, jobs }) {
    const expiredSessions = await db.delete(sessions).where(lt(sessions.expiresAt, sql`now()`)).returning({ id: sessions.idHash });
    const expiredTokens = await db
      .delete(authTokens)
      .where(lt(authTokens.expiresAt, sql`now() - interval '1 day'`))
      .returning({ id: authTokens.id });
    await db.delete(rateLimits).where(lt(rateLimits.windowEnd, sql`now()`));
    await db.delete(outbox).where(lt(outbox.createdAt, sql`now() - interval '30 days'`));
    const stranded = await findStrandedMail(db);
    for (const outboxId of stranded) {
      await jobs.send(sendEmailJob.name, { outboxId }, { singletonKey: `outbox-${outboxId}` });
    }
    log.info(
      { expiredSessions: expiredSessions.length, expiredTokens: expiredTokens.length, requeuedMail: stranded.length },
      'maintenance done',
    );
  },
});
