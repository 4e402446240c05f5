import {
  POSTMASTER_PROVIDER,
  type PostmasterStats,
  type PostmasterStatsQuery,
  type PostmasterStatus,
} from '@contracts/postmaster';
import { addDays, utcDay } from '@contracts/utc-day';
import type { SignInProvider } from '../integrations/integrations.service';
import type { AppContext } from '../platform/context';
import { googleOAuthClient } from './google-oauth';
import { importPostmasterStats } from './postmaster-import';
import { findPostmasterIntegration } from './postmaster-integration';
import { listUserStats } from './postmaster.repo';

/*
 * What the screens (and other capabilities) read of Google Postmaster Tools: whether the user's
 * Google account is connected, and the Gmail figures imported from it. Always the caller's own. And the
 * import, as the integrations' sync loop runs it (server/integration-providers.ts).
 */

/** Daily, after 07:40 UTC: Postmaster Tools publishes a day's figures the day after, and revises the days before. */
export const postmasterProvider: SignInProvider = {
  id: POSTMASTER_PROVIDER,
  dailyAfterUtc: '07:40',
  sync: (ctx, row, now) => importPostmasterStats(ctx, row.userId, now),
};

type ReadContext = Pick<AppContext, 'db' | 'env'>;

export async function postmasterStatus(ctx: ReadContext, userId: number): Promise<PostmasterStatus> {
  const row = await findPostmasterIntegration(ctx.db, userId);
  const configured = googleOAuthClient(ctx.env) !== undefined;
  const state = !configured
    ? 'not_configured'
    : !row
      ? 'not_connected'
      : row.credentialsEncrypted
        ? 'connected'
        : 'needs_reconnect';
  return {
    state,
    domains: (row?.config.domains ?? '').split(',').filter(Boolean),
    connectedAt: row ? (row.config.connectedAt ?? row.createdAt.toISOString()) : null,
    lastImportAt: row?.lastSyncAt?.toISOString() ?? null,
    lastError: row?.lastError ?? null,
  };
}

/** The user's figures for the last `days` UTC days (today included), of one domain or all. */
export async function postmasterStats(
  ctx: ReadContext,
  userId: number,
  query: PostmasterStatsQuery,
  now = new Date(),
): Promise<PostmasterStats> {
  const to = utcDay(now);
  const from = addDays(to, -(query.days - 1));
  return { from, to, days: await listUserStats(ctx.db, userId, from, to, query.domain) };
}
