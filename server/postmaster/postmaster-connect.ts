import type { FastifyRequest } from 'fastify';
import {
  GOOGLE_NOT_CONFIGURED,
  GOOGLE_OUTCOME_PARAM,
  POSTMASTER_MANAGE_PATH,
  type PostmasterConnectOutcome,
  type PostmasterConnectStart,
} from '@contracts/postmaster';
import { resolveConditionAlert } from '../alerts/alerts.service';
import type { AppContext } from '../platform/context';
import { AppError } from '../platform/errors';
import { findSessionUser } from '../platform/http/session';
import { readSessionCookie } from '../platform/http/session-cookie';
import { enforceRateLimit, type RateRule } from '../platform/security/rate-limit';
import { encryptSecret } from '../platform/security/secret-box';
import { hashToken, newToken } from '../platform/security/tokens';
import { GoogleError } from './google-http';
import { authorizationUrl, exchangeCode, googleOAuthClient, pkcePair, POSTMASTER_SCOPE } from './google-oauth';
import { queueIntegrationSync } from '../integrations/integrations.service';
import { listDomains } from './postmaster-api';
import { postmasterAlertKey } from './postmaster-import';
import { findPostmasterIntegration, saveConnection, updatePostmasterIntegration } from './postmaster-integration';
import { saveOauthState, takeOauthState } from './postmaster.repo';

/*
 * Connecting a Google account (docs/decisions/030). The signed-in browser
 * asks for Google's consent page; the `state` it carries is random, stored as a hash with the
 * session that asked, lives 10 minutes and is used once, so only that browser can finish that
 * sign-in (no login CSRF: nobody can attach their Google account to someone else's InboxPulse
 * account). The callback trades the code for tokens (with the PKCE verifier), keeps the refresh
 * token sealed with the secret box, and sends the browser back to the integrations page.
 */

export const STATE_TTL_SECONDS = 10 * 60;
/** Each start stores a state row: enough for a user retrying, not for filling the table. */
const CONNECT_STARTS: RateRule = { name: 'google-connect-user', limit: 20, windowSeconds: 10 * 60 };

/** The sealed credentials of the google-postmaster row: JSON like every plugin's secret fields. */
export function sealRefreshToken(refreshToken: string, appSecret: string): string {
  return encryptSecret(JSON.stringify({ refreshToken }), appSecret);
}

/** Google sends a browser back, with its cookie: an API key has no browser to send. */
export const CONNECT_NEEDS_BROWSER =
  'Connecting Google Postmaster Tools needs you signed in in the browser: API keys cannot start a Google sign-in';

/** POST /api/integrations/google-postmaster/connect: Google's consent page for this browser's session. */
export async function startConnect(
  ctx: AppContext,
  request: FastifyRequest,
  userId: number,
): Promise<PostmasterConnectStart> {
  const client = googleOAuthClient(ctx.env);
  // The server's set-up, not a fault: a 4xx that says so (a 503 would tell clients to retry what cannot work).
  if (!client) throw new AppError('conflict', GOOGLE_NOT_CONFIGURED);
  const session = readSessionCookie(request);
  // The route refuses API keys (CONNECT_NEEDS_BROWSER), so a signed-in request here has the cookie.
  if (!session) throw new AppError('forbidden', CONNECT_NEEDS_BROWSER);
  await enforceRateLimit(ctx.db, CONNECT_STARTS, String(userId));
  const state = newToken();
  const { verifier, challenge } = pkcePair();
  await saveOauthState(ctx.db, {
    stateHash: hashToken(state),
    userId,
    sessionHash: hashToken(session),
    codeVerifier: verifier,
    expiresAt: new Date(Date.now() + STATE_TTL_SECONDS * 1000),
  });
  return { authorizationUrl: authorizationUrl(client, state, challenge), expiresInSeconds: STATE_TTL_SECONDS };
}

export interface CallbackQuery {
  state?: string;
  code?: string;
  error?: string;
}

/** Where the callback sends the browser: the integrations page, saying how it went. */
export function outcomePath(outcome: PostmasterConnectOutcome): string {
  return `${POSTMASTER_MANAGE_PATH}&${GOOGLE_OUTCOME_PARAM}=${outcome}`;
}

/** GET /oauth/google/callback: connects the Google account of a sign-in this browser started, or says why not. */
export async function finishConnect(
  ctx: AppContext,
  request: FastifyRequest,
  query: CallbackQuery,
): Promise<PostmasterConnectOutcome> {
  if (!query.state) return 'invalid_state';
  // Used up whatever follows: a state finishes at most one callback, even a failed one.
  const pending = await takeOauthState(ctx.db, hashToken(query.state));
  if (!pending) return 'invalid_state';
  const session = readSessionCookie(request);
  const user = await findSessionUser(ctx.db, request);
  if (!session || !user || user.id !== pending.userId || hashToken(session) !== pending.sessionHash)
    return 'invalid_state';

  if (query.error) {
    if (query.error === 'access_denied') return 'access_denied';
    ctx.log.warn({ userId: user.id, error: query.error.slice(0, 100) }, 'Google sign-in answered with an error');
    return 'google_error';
  }
  const client = googleOAuthClient(ctx.env);
  if (!query.code || !client) return 'google_error';

  let tokens;
  try {
    tokens = await exchangeCode(client, query.code, pending.codeVerifier);
  } catch (err) {
    if (!(err instanceof GoogleError)) throw err;
    ctx.log.warn(
      { userId: user.id, kind: err.kind, status: err.status, code: err.code },
      'Google code exchange failed',
    );
    if (err.kind === 'revoked') return 'invalid_grant';
    return err.kind === 'unavailable' || err.kind === 'rate_limited' ? 'unavailable' : 'google_error';
  }
  if (tokens.scopes.length > 0 && !tokens.scopes.includes(POSTMASTER_SCOPE)) return 'scope_denied';
  if (!tokens.refreshToken) return 'no_refresh_token';

  // The account's domains now, so the screens name them at once; the import reads them again.
  const previous = await findPostmasterIntegration(ctx.db, user.id);
  let domains: string | undefined;
  let domainsError: string | undefined;
  try {
    domains = (await listDomains(ctx.env.GOOGLE_POSTMASTER_API_BASE_URL, tokens.accessToken))
      .map((d) => d.domain)
      .join(',');
  } catch (err) {
    if (!(err instanceof GoogleError)) throw err;
    domainsError = err.message;
  }
  const connectedAt = new Date();
  const integrationId = await ctx.db.transaction(async (tx) => {
    const row = await saveConnection(tx, user.id, sealRefreshToken(tokens.refreshToken!, ctx.env.APP_SECRET), {
      domains: domains ?? previous?.config.domains ?? '',
      connectedAt: connectedAt.toISOString(),
    });
    if (domainsError)
      await updatePostmasterIntegration(tx, row.id, { lastError: domainsError, lastErrorAt: connectedAt });
    await resolveConditionAlert(
      tx,
      user.id,
      postmasterAlertKey(row.id),
      'Google Postmaster Tools was connected again.',
    );
    return row.id;
  });
  await queueIntegrationSync(ctx.jobs, integrationId);
  return 'connected';
}
