import type { AppContext } from '../platform/context';
import { safeMessage } from '../platform/logger';
import { claimRun, failRun, finishRun, lockUserRun } from './blocklist-results.repo';

type RunContext = Pick<AppContext, 'db' | 'dns' | 'log'>;

/** One user's check. Skipped when another run of the user is going. */
export async function runReputationCheck(ctx: RunContext, userId: number): Promise<void> {
  const startedAt = await claimRun(ctx.db, userId);
  if (!startedAt) {
    ctx.log.info({ userId }, 'reputation check skipped: another one is going');
    return;
  }
  try {
    await ctx.db.transaction(async (tx) => {
      await lockUserRun(tx, userId);
      await finishRun(tx, userId);
    });
  } catch (err) {
    await failRun(ctx.db, userId, safeMessage(err instanceof Error ? err : new Error(String(err))));
    throw err;
  }
}
