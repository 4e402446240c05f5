import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/*
 * A loopback stand-in for Google, for tests: the OAuth 2.0 endpoints of a web server application
 * (the consent page at /o/oauth2/v2/auth, which redirects back at once as if the user had pressed
 * Allow or Cancel, and /token for the code exchange and refreshes) and the Gmail Postmaster Tools
 * API v1 (/v1/domains, /v1/domains/{domain}/trafficStats), answering with the shapes and error bodies
 * of Google's references. It checks what Google checks: the client, the redirect URI, PKCE, codes
 * used once, revoked refresh tokens, bearer tokens, the trafficStats date range (endDate exclusive).
 */

export interface FakeTrafficStats {
  /** YYYY-MM-DD */
  date: string;
  userReportedSpamRatio?: number;
  userReportedSpamRatioLowerBound?: number;
  userReportedSpamRatioUpperBound?: number;
  spfSuccessRatio?: number;
  dkimSuccessRatio?: number;
  dmarcSuccessRatio?: number;
  inboundEncryptionRatio?: number;
  outboundEncryptionRatio?: number;
  domainReputation?: string;
  ipReputations?: { reputation: string; ipCount: string; sampleIps?: string[] }[];
  deliveryErrors?: { errorClass: string; errorType: string; errorRatio: number }[];
  spammyFeedbackLoops?: { id: string; spamRatio: number }[];
}

/** A Google account with domains in Postmaster Tools. */
export interface FakeAccount {
  /** domain -> permission (OWNER, READER, NONE) */
  domains: Record<string, string>;
  /** domain -> its days */
  stats: Record<string, FakeTrafficStats[]>;
  /** Domains whose trafficStats answer 403 PERMISSION_DENIED. */
  deniedDomains?: string[];
}

export interface FakeRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  form: URLSearchParams;
}

export interface FakeGoogle {
  url: string;
  clientId: string;
  clientSecret: string;
  requests: FakeRequest[];
  /** What the consent page does: allow, or answer error=access_denied (Cancel). */
  consent: 'allow' | 'deny';
  /** The account that signs in on the consent page next. */
  signInAs: FakeAccount;
  /** Scopes the user leaves ticked (granular consent); all asked for when undefined. */
  grantedScopes?: string[];
  /** Leaves refresh_token out of the code exchange (a consent without offline access). */
  omitRefreshToken: boolean;
  /** The next `count` Postmaster API requests answer 429 with Retry-After `seconds`. */
  rateLimit(count: number, seconds: number): void;
  /** The user removes the app's access in their Google Account: the refresh token answers invalid_grant. */
  revoke(refreshToken: string): void;
  /** Every refresh token issued, newest last. */
  refreshTokens: string[];
  close(): Promise<void>;
}

interface IssuedCode {
  account: FakeAccount;
  redirectUri: string;
  challenge: string;
  scopes: string[];
  used: boolean;
}

const googleApiError = (code: number, status: string, message: string) => ({ error: { code, message, status } });

export async function startFakeGoogle(): Promise<FakeGoogle> {
  const codes = new Map<string, IssuedCode>();
  const refreshTokens = new Map<string, { account: FakeAccount; scopes: string[]; revoked: boolean }>();
  const accessTokens = new Map<string, FakeAccount>();
  let rateLimited = { count: 0, seconds: 0 };

  const fake: FakeGoogle = {
    url: '',
    clientId: '1234567890-test.apps.googleusercontent.com',
    clientSecret: 'GOCSPX-test-secret',
    requests: [],
    consent: 'allow',
    signInAs: { domains: {}, stats: {} },
    omitRefreshToken: false,
    rateLimit(count, seconds) {
      rateLimited = { count, seconds };
    },
    revoke(token) {
      const entry = refreshTokens.get(token);
      if (entry) entry.revoked = true;
    },
    refreshTokens: [],
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };

  function consentPage(query: URLSearchParams): { status: number; headers?: Record<string, string>; body?: unknown } {
    const redirectUri = query.get('redirect_uri') ?? '';
    // Google shows its own error page (no redirect) for a wrong client or redirect URI.
    if (query.get('client_id') !== fake.clientId || !redirectUri.endsWith('/oauth/google/callback'))
      return { status: 400, body: 'Error 400: redirect_uri_mismatch' };
    const state = query.get('state') ?? '';
    const back = new URL(redirectUri);
    if (
      query.get('response_type') !== 'code' ||
      query.get('code_challenge_method') !== 'S256' ||
      !query.get('code_challenge')
    ) {
      back.search = new URLSearchParams({ error: 'invalid_request', state }).toString();
    } else if (fake.consent === 'deny') {
      back.search = new URLSearchParams({ error: 'access_denied', state }).toString();
    } else {
      const asked = (query.get('scope') ?? '').split(' ').filter(Boolean);
      const scopes = fake.grantedScopes ?? asked;
      const code = `4/0A${randomBytes(12).toString('base64url')}`;
      codes.set(code, {
        account: fake.signInAs,
        redirectUri,
        challenge: query.get('code_challenge')!,
        scopes,
        used: false,
      });
      back.search = new URLSearchParams({ state, code, scope: scopes.join(' ') }).toString();
    }
    return { status: 302, headers: { location: back.toString() } };
  }

  function token(form: URLSearchParams): { status: number; body: unknown } {
    if (form.get('client_id') !== fake.clientId || form.get('client_secret') !== fake.clientSecret) {
      return { status: 401, body: { error: 'invalid_client', error_description: 'Unauthorized' } };
    }
    if (form.get('grant_type') === 'authorization_code') {
      const issued = codes.get(form.get('code') ?? '');
      if (!issued || issued.used)
        return { status: 400, body: { error: 'invalid_grant', error_description: 'Bad Request' } };
      issued.used = true;
      if (issued.redirectUri !== form.get('redirect_uri'))
        return { status: 400, body: { error: 'redirect_uri_mismatch', error_description: 'Bad Request' } };
      const verifier = form.get('code_verifier') ?? '';
      if (createHash('sha256').update(verifier).digest('base64url') !== issued.challenge) {
        return { status: 400, body: { error: 'invalid_grant', error_description: 'Invalid code verifier.' } };
      }
      const accessToken = `ya29.${randomBytes(16).toString('base64url')}`;
      accessTokens.set(accessToken, issued.account);
      const body: Record<string, unknown> = {
        access_token: accessToken,
        expires_in: 3599,
        scope: issued.scopes.join(' '),
        token_type: 'Bearer',
      };
      if (!fake.omitRefreshToken) {
        const refreshToken = `1//0g${randomBytes(24).toString('base64url')}`;
        refreshTokens.set(refreshToken, { account: issued.account, scopes: issued.scopes, revoked: false });
        fake.refreshTokens.push(refreshToken);
        body.refresh_token = refreshToken;
      }
      return { status: 200, body };
    }
    if (form.get('grant_type') === 'refresh_token') {
      const entry = refreshTokens.get(form.get('refresh_token') ?? '');
      if (!entry || entry.revoked)
        return {
          status: 400,
          body: { error: 'invalid_grant', error_description: 'Token has been expired or revoked.' },
        };
      const accessToken = `ya29.${randomBytes(16).toString('base64url')}`;
      accessTokens.set(accessToken, entry.account);
      return {
        status: 200,
        body: { access_token: accessToken, expires_in: 3599, scope: entry.scopes.join(' '), token_type: 'Bearer' },
      };
    }
    return { status: 400, body: { error: 'unsupported_grant_type', error_description: 'Invalid grant_type: ' } };
  }

  function postmaster(req: FakeRequest): { status: number; headers?: Record<string, string>; body: unknown } {
    const bearer = String(req.headers.authorization ?? '').replace(/^Bearer /, '');
    const account = accessTokens.get(bearer);
    if (!account) {
      return {
        status: 401,
        body: googleApiError(
          401,
          'UNAUTHENTICATED',
          'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.',
        ),
      };
    }
    if (rateLimited.count > 0) {
      rateLimited.count--;
      return {
        status: 429,
        headers: { 'retry-after': String(rateLimited.seconds) },
        body: googleApiError(
          429,
          'RESOURCE_EXHAUSTED',
          "Quota exceeded for quota metric 'Queries' and limit 'Queries per minute per user'.",
        ),
      };
    }
    if (req.path === '/v1/domains') {
      return {
        status: 200,
        body: {
          domains: Object.entries(account.domains).map(([name, permission]) => ({
            name: `domains/${name}`,
            createTime: '2024-01-15T10:00:00Z',
            permission,
          })),
        },
      };
    }
    const match = req.path.match(/^\/v1\/domains\/([^/]+)\/trafficStats$/);
    if (match) {
      const domain = decodeURIComponent(match[1]);
      if (
        !(domain in account.domains) ||
        account.deniedDomains?.includes(domain) ||
        account.domains[domain] === 'NONE'
      ) {
        return { status: 403, body: googleApiError(403, 'PERMISSION_DENIED', 'The caller does not have permission') };
      }
      const date = (prefix: string) => {
        const [y, m, d] = ['year', 'month', 'day'].map((part) => req.query.get(`${prefix}.${part}`));
        return y && m && d ? `${y}-${m.padStart(2, '0')}-${d.padStart(2, '0')}` : undefined;
      };
      const start = date('startDate');
      const end = date('endDate');
      if (Boolean(start) !== Boolean(end) || (start && end && end < start)) {
        return { status: 400, body: googleApiError(400, 'INVALID_ARGUMENT', 'Request contains an invalid argument.') };
      }
      const days = (account.stats[domain] ?? []).filter((day) => !start || (day.date >= start && day.date < end!));
      // Two pages when there are many days, as the API may answer.
      const pageSize = Math.min(Number(req.query.get('pageSize') ?? 100), 5);
      const offset = Number(req.query.get('pageToken') ?? 0);
      const page = days.slice(offset, offset + pageSize);
      return {
        status: 200,
        body: {
          trafficStats: page.map(({ date: day, ...fields }) => ({
            name: `domains/${domain}/trafficStats/${day.replaceAll('-', '')}`,
            ...fields,
          })),
          ...(offset + pageSize < days.length ? { nextPageToken: String(offset + pageSize) } : {}),
        },
      };
    }
    return { status: 404, body: googleApiError(404, 'NOT_FOUND', 'Requested entity was not found.') };
  }

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const request: FakeRequest = {
        method: req.method ?? 'GET',
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        form: new URLSearchParams(Buffer.concat(chunks).toString('utf8')),
      };
      fake.requests.push(request);
      let answer: { status: number; headers?: Record<string, string>; body?: unknown };
      if (request.method === 'GET' && request.path === '/o/oauth2/v2/auth') answer = consentPage(request.query);
      else if (request.method === 'POST' && request.path === '/token') answer = token(request.form);
      else if (request.method === 'GET' && request.path.startsWith('/v1/')) answer = postmaster(request);
      else answer = { status: 404, body: googleApiError(404, 'NOT_FOUND', 'Not Found') };
      const body =
        answer.body === undefined ? '' : typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
      res.writeHead(answer.status, {
        'content-type': typeof answer.body === 'string' ? 'text/html' : 'application/json; charset=utf-8',
        ...answer.headers,
      });
      res.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}
