import type { PostmasterDay } from '@contracts/postmaster';
import { addDays, DAY_MS, utcDay } from '@contracts/utc-day';
import { keepConditionAlert, queueAlertEvaluation, resolveConditionAlert } from '../alerts/alerts.service';
import type { AppContext } from '../platform/context';
import { decryptSecret, SecretBoxError } from '../platform/security/secret-box';
import { GoogleError } from './google-http';
import { googleOAuthClient, refreshAccessToken } from './google-oauth';
import { listDomains, listTrafficStats } from './postmaster-api';
import {
  findPostmasterIntegration,
  lockPostmasterIntegration,
  updatePostmasterIntegration,
  type PostmasterIntegration,
} from './postmaster-integration';
import { upsertStats } from './postmaster.repo';
import {
  FAILURES_BEFORE_ALERT,
  failedSyncFields,
  rateLimitedFields,
  syncAlertKey,
} from '../integrations/integrations.service';

/*
 * One import of one user's Gmail figures (docs/decisions/030), run by the integrations' sync loop as any
 * plugin's sync (ADR 049: the same hourly round, job, retries and back-off, once a day): a fresh access
 * token from the stored refresh token, the account's Postmaster Tools domains, and each domain's
 * traffic statistics for the last days, written over what is stored for the same day (Google
 * revises recent days), so running it twice changes nothing. The outcome is kept on the integration:
 * - Google refused the refresh token (invalid_grant: revoked, expired): the token is dropped, the
 *   integration needs a reconnect, and an alert says so until the user connects again;
 * - Google asked to wait (429): nothing more is asked before Retry-After, then the next round imports again;
 * - anything else: the error is kept, the next import waits as a failed sync does (backoffMs), and an alert is
 *   raised when imports keep failing.
 */

export type PostmasterContext = Pick<AppContext, 'db' | 'env' | 'jobs' | 'log'>;

/** Days read on the first import (what Postmaster Tools keeps), and on later ones (Google completes recent days late). */
export const FIRST_IMPORT_DAYS = 120;
export const RECENT_DAYS = 7;
/** The integration's alert, under the key every plugin's sync alert has: uninstalling resolves it (integrations.service). */
export const postmasterAlertKey = (integrationId: number) => syncAlertKey(integrationId);

export type ImportOutcome =
  | { status: 'imported'; domains: string[]; days: number; refusedDomains: string[] }
  | { status: 'needs_reconnect'; error: string }
  | { status: 'rate_limited'; error: string; retryAfterSeconds: number }
  | { status: 'failed'; error: string; failures: number }
  | { status: 'skipped'; reason: string };

/** How many days to read: all Google keeps the first time; after a gap (a reconnect), back to the last import. */
export function daysToRead(lastImportAt: Date | null, now: Date): number {
  if (!lastImportAt) return FIRST_IMPORT_DAYS;
  const since = Math.ceil((now.getTime() - lastImportAt.getTime()) / DAY_MS);
  return Math.min(FIRST_IMPORT_DAYS, Math.max(RECENT_DAYS, since + RECENT_DAYS));
}

function openRefreshToken(box: string, appSecret: string): string {
  const value: unknown = JSON.parse(decryptSecret(box, appSecret));
  const token = value && typeof value === 'object' ? (value as Record<string, unknown>).refreshToken : undefined;
  if (typeof token !== 'string' || !token) throw new SecretBoxError('The stored credentials hold no refresh token');
  return token;
}

/** Imports the user's figures now; the outcome is stored and returned. Errors other than Google's (the database) are thrown. */
export async function importPostmasterStats(
  ctx: PostmasterContext,
  userId: number,
  now = new Date(),
): Promise<ImportOutcome> {
  const row = await findPostmasterIntegration(ctx.db, userId);
  if (!row) return { status: 'skipped', reason: 'not connected' };
  if (row.status === 'inactive') return { status: 'skipped', reason: 'paused' };
  if (!row.credentialsEncrypted) return { status: 'skipped', reason: 'waiting for a reconnect' };
  const client = googleOAuthClient(ctx.env);
  if (!client) {
    const error =
      'Google sign-in is no longer configured on this server (GOOGLE_CLIENT_ID, GOOGLE_CLIENT_SECRET), so Postmaster Tools cannot be read';
    await updatePostmasterIntegration(ctx.db, row.id, { lastError: error, lastErrorAt: now });
    return { status: 'skipped', reason: error };
  }

  let refreshToken: string;
  try {
    refreshToken = openRefreshToken(row.credentialsEncrypted, ctx.env.APP_SECRET);
  } catch (err) {
    if (!(err instanceof SecretBoxError) && !(err instanceof SyntaxError)) throw err;
    return markNeedsReconnect(ctx, row, 'the stored Google access can no longer be read (the server key changed)', now);
  }

  const to = utcDay(now);
  const from = addDays(to, -(daysToRead(row.lastSyncAt, now) - 1));
  const apiBase = ctx.env.GOOGLE_POSTMASTER_API_BASE_URL;
  const days: PostmasterDay[] = [];
  const refusedDomains: string[] = [];
  let domains: string[];
  try {
    const accessToken = await refreshAccessToken(client, refreshToken);
    domains = (await listDomains(apiBase, accessToken)).map((d) => d.domain);
    for (const domain of domains) {
      try {
        days.push(...(await listTrafficStats(apiBase, accessToken, domain, from, to)));
      } catch (err) {
        // One domain Google will not show (access removed since the list, no data): the others still count.
        if (err instanceof GoogleError && err.kind === 'refused' && (err.status === 403 || err.status === 404))
          refusedDomains.push(domain);
        else throw err;
      }
    }
  } catch (err) {
    if (!(err instanceof GoogleError)) throw err;
    if (err.kind === 'revoked') return markNeedsReconnect(ctx, row, `Google said: ${err.message}`, now);
    if (err.kind === 'rate_limited') {
      // What was read before Google asked to wait is kept; the rest is asked for once the wait is over.
      if (days.length > 0) await store(ctx, row, days, undefined, now, false);
      return rateLimited(ctx, row, err, now);
    }
    return recordFailure(ctx, row, err.message, now);
  }

  const stored = await store(ctx, row, days, { domains, refusedDomains }, now, true);
  if (!stored) return { status: 'skipped', reason: 'disconnected or paused during the import' };
  // New figures: Gmail's spam rate is judged again (alerts: gmail-spam conditions).
  if (days.length > 0) await queueAlertEvaluation(ctx.jobs, userId);
  return { status: 'imported', domains, days: days.length, refusedDomains };
}

/** Writes the days (and, for a complete import, the import's success) unless the integration went meanwhile. */
async function store(
  ctx: PostmasterContext,
  row: PostmasterIntegration,
  days: PostmasterDay[],
  done: { domains: string[]; refusedDomains: string[] } | undefined,
  now: Date,
  complete: boolean,
): Promise<boolean> {
  return ctx.db.transaction(async (tx) => {
    const current = await lockPostmasterIntegration(tx, row.userId);
    if (!current || current.id !== row.id || current.status === 'inactive') return false;
    await upsertStats(tx, row.userId, row.id, days);
    if (!complete || !done) return true;
    const refused =
      done.refusedDomains.length > 0
        ? `Postmaster Tools did not show the figures of ${done.refusedDomains.join(', ')} (no permission or no data)`
        : null;
    await updatePostmasterIntegration(tx, row.id, {
      lastSyncAt: now,
      lastError: refused,
      lastErrorAt: refused ? now : null,
      consecutiveFailures: 0,
      nextSyncAt: null,
      // A reconnect during the import keeps its own state; otherwise a success clears a past error.
      ...(current.credentialsEncrypted ? { status: 'active' as const } : {}),
      config: { ...current.config, domains: done.domains.join(',') },
    });
    if (current.credentialsEncrypted)
      await resolveConditionAlert(
        tx,
        row.userId,
        postmasterAlertKey(row.id),
        `Gmail's figures were imported again on ${now.toISOString()}.`,
      );
    return true;
  });
}

async function markNeedsReconnect(
  ctx: PostmasterContext,
  row: PostmasterIntegration,
  why: string,
  now: Date,
): Promise<ImportOutcome> {
  const error = `Google no longer gives InboxPulse access to Postmaster Tools: ${why}. Connect Google Postmaster Tools again.`;
  await ctx.db.transaction(async (tx) => {
    const current = await lockPostmasterIntegration(tx, row.userId);
    // Reconnected (a new token) or removed while this import ran: the refusal was of the old token.
    if (!current || current.id !== row.id || current.credentialsEncrypted !== row.credentialsEncrypted) return;
    await updatePostmasterIntegration(tx, row.id, {
      credentialsEncrypted: null,
      status: 'error',
      lastError: error,
      lastErrorAt: now,
      nextSyncAt: null,
    });
    await keepConditionAlert(tx, {
      userId: row.userId,
      conditionKey: postmasterAlertKey(row.id),
      type: 'deliverability',
      severity: 'error',
      title: 'Reconnect Google Postmaster Tools',
      message:
        `Google refused InboxPulse's access to your Postmaster Tools data (${why}): the access was revoked in your Google Account, expired, or the password changed. ` +
        "Gmail's spam rate, authentication, TLS and reputation figures stop updating until you connect Google Postmaster Tools again in Integrations.",
      measure: 'Google Postmaster Tools access',
      metadata: {
        value: 'revoked',
        provider: row.provider,
        integrationId: row.id,
        lastError: error,
        lastErrorAt: now.toISOString(),
      },
    });
  });
  return { status: 'needs_reconnect', error };
}

async function rateLimited(
  ctx: PostmasterContext,
  row: PostmasterIntegration,
  err: GoogleError,
  now: Date,
): Promise<ImportOutcome> {
  // Google asked to wait: not a failure of the integration, and nothing is asked before then.
  const wait = err.retryAfterSeconds ?? 60;
  await updatePostmasterIntegration(ctx.db, row.id, rateLimitedFields(err.message, wait, now));
  return { status: 'rate_limited', error: err.message, retryAfterSeconds: wait };
}

async function recordFailure(
  ctx: PostmasterContext,
  row: PostmasterIntegration,
  error: string,
  now: Date,
): Promise<ImportOutcome> {
  const failures = row.consecutiveFailures + 1;
  await ctx.db.transaction(async (tx) => {
    const current = await lockPostmasterIntegration(tx, row.userId);
    if (!current || current.id !== row.id || current.status === 'inactive') return;
    await updatePostmasterIntegration(tx, row.id, failedSyncFields(failures, error, now, current.status));
    if (failures < FAILURES_BEFORE_ALERT) return;
    await keepConditionAlert(tx, {
      userId: row.userId,
      conditionKey: postmasterAlertKey(row.id),
      type: 'deliverability',
      severity: 'warning',
      title: 'Google Postmaster Tools import keeps failing',
      message: `The last ${failures} daily imports from Google Postmaster Tools failed; the last one said: ${error}. Gmail's figures on the dashboard are not current until it works again.`,
      measure: 'Failed Postmaster Tools imports in a row',
      metadata: {
        value: failures,
        provider: row.provider,
        integrationId: row.id,
        lastError: error,
        lastErrorAt: now.toISOString(),
      },
    });
  });
  return { status: 'failed', error, failures };
}
