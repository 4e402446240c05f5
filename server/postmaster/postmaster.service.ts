import type { PostmasterStats, PostmasterStatsQuery, PostmasterStatus } from '@contracts/postmaster';
import { addDays, utcDay } from '@contracts/utc-day';
import type { AppContext } from '../platform/context';
import { googleOAuthClient } from './google-oauth';
import { findPostmasterIntegration, listUserStats } from './postmaster.repo';

/*
 * What the screens (and other capabilities) read of Google Postmaster Tools: whether the user's
 * Google account is connected, and the Gmail figures imported from it. Always the caller's own.
 */

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
