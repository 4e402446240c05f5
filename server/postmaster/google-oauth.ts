import { createHash, randomBytes } from 'node:crypto';
import { z } from 'zod';
import { GOOGLE_CALLBACK_PATH } from '@contracts/postmaster';
import type { Env } from '../platform/env';
import { GoogleError, googleJson } from './google-http';

/*
 * Google's OAuth 2.0 flow for web server applications: the authorization request (offline access,
 * consent every time so a refresh token comes back, PKCE), the code exchange and the refresh. The
 * client id and secret are the operator's (GOOGLE_CLIENT_ID, GOOGLE_CLIENT_SECRET).
 */

export const POSTMASTER_SCOPE = 'https://www.googleapis.com/auth/postmaster.readonly';

export interface GoogleOAuthClient {
  clientId: string;
  clientSecret: string;
  authorizationEndpoint: string;
  tokenEndpoint: string;
  redirectUri: string;
}

type GoogleEnv = Pick<
  Env,
  'GOOGLE_CLIENT_ID' | 'GOOGLE_CLIENT_SECRET' | 'GOOGLE_ACCOUNTS_BASE_URL' | 'GOOGLE_OAUTH_TOKEN_BASE_URL' | 'APP_URL'
>;

/** The server's OAuth client, or undefined when the operator gave none (Google sign-in is off). */
export function googleOAuthClient(env: GoogleEnv): GoogleOAuthClient | undefined {
  if (!env.GOOGLE_CLIENT_ID || !env.GOOGLE_CLIENT_SECRET) return undefined;
  return {
    clientId: env.GOOGLE_CLIENT_ID,
    clientSecret: env.GOOGLE_CLIENT_SECRET,
    authorizationEndpoint: `${env.GOOGLE_ACCOUNTS_BASE_URL}/o/oauth2/v2/auth`,
    tokenEndpoint: `${env.GOOGLE_OAUTH_TOKEN_BASE_URL}/token`,
    redirectUri: `${env.APP_URL}${GOOGLE_CALLBACK_PATH}`,
  };
}

/** A PKCE verifier (43 characters of base64url, RFC 7636) and its S256 challenge. */
export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** Google's consent page for read access to Postmaster Tools. */
export function authorizationUrl(client: GoogleOAuthClient, state: string, codeChallenge: string): string {
  const url = new URL(client.authorizationEndpoint);
  url.search = new URLSearchParams({
    client_id: client.clientId,
    redirect_uri: client.redirectUri,
    response_type: 'code',
    scope: POSTMASTER_SCOPE,
    // A refresh token, for the daily import while the user is away; consent every time, so Google
    // sends one again on a reconnect (it sends one only on the first consent otherwise).
    access_type: 'offline',
    prompt: 'consent',
    include_granted_scopes: 'true',
    state,
    code_challenge: codeChallenge,
    code_challenge_method: 'S256',
  }).toString();
  return url.toString();
}

const TokenAnswer = z.object({
  access_token: z.string().min(1),
  expires_in: z.coerce.number().optional(),
  refresh_token: z.string().min(1).optional(),
  scope: z.string().optional(),
  token_type: z.string().optional(),
});

function readTokens(answer: unknown) {
  const parsed = TokenAnswer.safeParse(answer);
  if (!parsed.success) throw new GoogleError('Google’s token endpoint answered without an access token', 'malformed');
  return parsed.data;
}

export interface ExchangedTokens {
  accessToken: string;
  /** Null when Google sent none (it does not without access_type=offline and a fresh consent). */
  refreshToken: string | null;
  /** The scopes the user granted: with granular consent a user may leave one unticked. */
  scopes: string[];
}

/** Trades the callback's code for tokens; throws GoogleError ('revoked' for invalid_grant: a used or expired code). */
export async function exchangeCode(
  client: GoogleOAuthClient,
  code: string,
  codeVerifier: string,
): Promise<ExchangedTokens> {
  const tokens = readTokens(
    await googleJson('Google’s token endpoint', client.tokenEndpoint, {
      form: {
        grant_type: 'authorization_code',
        code,
        code_verifier: codeVerifier,
        client_id: client.clientId,
        client_secret: client.clientSecret,
        redirect_uri: client.redirectUri,
      },
    }),
  );
  return {
    accessToken: tokens.access_token,
    refreshToken: tokens.refresh_token ?? null,
    scopes: tokens.scope?.split(/\s+/).filter(Boolean) ?? [],
  };
}

/** A new access token from the stored refresh token; throws GoogleError ('revoked' when the user or Google revoked it). */
export async function refreshAccessToken(client: GoogleOAuthClient, refreshToken: string): Promise<string> {
  const tokens = readTokens(
    await googleJson('Google’s token endpoint', client.tokenEndpoint, {
      form: {
        grant_type: 'refresh_token',
        refresh_token: refreshToken,
        client_id: client.clientId,
        client_secret: client.clientSecret,
      },
    }),
  );
  return tokens.access_token;
}
