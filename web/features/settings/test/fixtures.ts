import type { ApiKeyStatus, GeneratedApiKey, GeneratedWebhookToken, WebhookTokenStatus } from '@contracts/api-keys';
import type { User } from '@contracts/user';
import { errorResponse, jsonResponse, makeUser, stubFetch } from '../../../test/test-utils';

export const NO_KEY: ApiKeyStatus = { hasApiKey: false, keyPreview: null, createdAt: null, lastUsedAt: null };
export const NO_TOKEN: WebhookTokenStatus = { hasToken: false, tokenPreview: null, createdAt: null };

export const EXISTING_KEY: ApiKeyStatus = {
  hasApiKey: true,
  keyPreview: 'ipk_Old9…',
  createdAt: '2025-03-01T10:00:00.000Z',
  lastUsedAt: '2025-03-02T08:30:00.000Z',
};
export const EXISTING_TOKEN: WebhookTokenStatus = {
  hasToken: true,
  tokenPreview: 'iwt_Old7…',
  createdAt: '2025-03-01T10:00:00.000Z',
};

export function generatedKey(apiKey: string): GeneratedApiKey {
  return { apiKey, keyPreview: `${apiKey.slice(0, 8)}…`, createdAt: '2025-03-05T09:00:00.000Z' };
}

export function generatedToken(token: string): GeneratedWebhookToken {
  return { token, tokenPreview: `${token.slice(0, 8)}…`, createdAt: '2025-03-05T09:00:00.000Z' };
}

type Handler = Parameters<typeof stubFetch>[0][string];

/**
 * The calls of /settings with a server that remembers: the key and token change as the page asks.
 * `overrides` replaces any call (a failure).
 */
export function stubSettings({
  user = makeUser(),
  apiKey = NO_KEY,
  token = NO_TOKEN,
  issuedKeys = ['ipk_FirstKey0123456789abcdefghijklmnopqrstu', 'ipk_SecondKey123456789abcdefghijklmnopqrst'],
  issuedTokens = ['iwt_FirstToken123456789abcdefghijklmnopqr', 'iwt_SecondToken23456789abcdefghijklmnopq'],
  overrides = {},
}: {
  user?: User;
  apiKey?: ApiKeyStatus;
  token?: WebhookTokenStatus;
  issuedKeys?: string[];
  issuedTokens?: string[];
  overrides?: Record<string, Handler>;
} = {}) {
  let keyStatus = apiKey;
  let tokenStatus = token;
  let signedIn = true;
  const keys = [...issuedKeys];
  const tokens = [...issuedTokens];
  const issueKey = () => {
    const answer = generatedKey(keys.shift()!);
    keyStatus = { hasApiKey: true, keyPreview: answer.keyPreview, createdAt: answer.createdAt, lastUsedAt: null };
    return jsonResponse(answer);
  };
  const issueToken = () => {
    const answer = generatedToken(tokens.shift()!);
    tokenStatus = { hasToken: true, tokenPreview: answer.tokenPreview, createdAt: answer.createdAt };
    return jsonResponse(answer);
  };
  return stubFetch({
    'GET /api/user': () =>
      signedIn ? jsonResponse(user) : errorResponse(401, 'unauthorized', 'Please sign in to continue'),
    'GET /api/alerts': () => jsonResponse([]),
    'GET /api/account/sessions': () => jsonResponse({ sessions: [] }),
    'GET /api/account/storage': () =>
      jsonResponse({ dmarc: { reports: 0, records: 0, recordLimit: 1_000_000, bytes: 0 } }),
    'GET /api/api-keys/status': () => jsonResponse(keyStatus),
    'POST /api/api-keys/generate': issueKey,
    'POST /api/api-keys/regenerate': issueKey,
    'DELETE /api/api-keys': () => {
      keyStatus = NO_KEY;
      return new Response(null, { status: 204 });
    },
    'GET /api/webhook-tokens/status': () => jsonResponse(tokenStatus),
    'GET /api/webhooks': () => jsonResponse([]),
    'POST /api/webhook-tokens/generate': issueToken,
    'POST /api/webhook-tokens/regenerate': issueToken,
    'DELETE /api/webhook-tokens': () => {
      tokenStatus = NO_TOKEN;
      return new Response(null, { status: 204 });
    },
    'DELETE /api/account': () => {
      signedIn = false;
      return new Response(null, { status: 204 });
    },
    ...overrides,
  });
}

/** The calls a stub received, as 'METHOD /path'. */
export function callsOf(mock: ReturnType<typeof stubFetch>): string[] {
  return mock.mock.calls.map(
    ([url, init]) => `${init?.method ?? 'GET'} ${new URL(String(url), 'http://localhost').pathname}`,
  );
}
