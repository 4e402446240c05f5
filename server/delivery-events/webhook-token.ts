import type { FastifyReply, FastifyRequest } from 'fastify';
import { WEBHOOK_TOKEN_PREFIX } from '@contracts/api-keys';
import { webhookTokenOwner } from '../api-keys/api-keys.service';
import type { Db } from '../platform/db/client';
import { AppError } from '../platform/errors';
import { bearerTokenOf } from '../platform/http/api-key-auth';
import { countAgainst, enforceRateLimit, rateLimitUsedUp, type RateRule } from '../platform/security/rate-limit';

declare module 'fastify' {
  interface FastifyRequest {
    /** The owner of the webhook token an MTA posted with (requireWebhookToken). */
    webhookUserId?: number;
  }
}

export const TOKEN_RULES = {
  // One wrong token from one address, many times: a misconfigured MTA posting a revoked token, or a guesser. Counted
  // per address and token start, and only ever against wrong tokens: a valid token is never refused for what other
  // tokens from the same address (a shared NAT, another account's MTA) did. Past the limit the wrong token gets a
  // 429 that tells the MTA to back off instead of a 401 it retries at once.
  failuresPerIpAndToken: { name: 'mta-token-fail', limit: 60, windowSeconds: 10 * 60 },
  // Batches per account: 100 a second sustained, which carries 100,000 events a second in batches of
  // 1,000, or GreenArrow's and Postal's one event a request at a high volume.
  requestsPerUser: { name: 'mta-events-user', limit: 6000, windowSeconds: 60 },
} satisfies Record<string, RateRule>;

/** What a wrong token's failures are counted under: the address and the token's first characters (its preview). */
const failureSubject = (ip: string, token: string) => `${ip}:${token.slice(0, 12)}`;

export const TOKEN_MESSAGES = {
  missing: `Missing webhook token: send "Authorization: Bearer ${WEBHOOK_TOKEN_PREFIX}…", the X-Webhook-Token header, or ?token=${WEBHOOK_TOKEN_PREFIX}… in the URL. Generate one in Settings, Webhook Token.`,
  invalid: `Invalid webhook token: it was revoked or regenerated, or it is not an InboxPulse webhook token (${WEBHOOK_TOKEN_PREFIX}…). Copy the current one from Settings, Webhook Token.`,
  apiKey: `This endpoint takes your webhook token (${WEBHOOK_TOKEN_PREFIX}…), not an API key: find it in Settings, Webhook Token.`,
} as const;

/** The token the request carries: Authorization: Bearer, X-Webhook-Token, or the token query parameter, in that order. */
export function webhookTokenOf(request: FastifyRequest): string | undefined {
  const bearer = bearerTokenOf(request);
  if (bearer) return bearer;
  const header = request.headers['x-webhook-token'];
  if (typeof header === 'string' && header.trim()) return header.trim();
  const query = (request.query as Record<string, unknown> | undefined)?.token;
  return typeof query === 'string' && query.trim() ? query.trim() : undefined;
}

/**
 * onRequest hook of the MTA webhook endpoints: the owner of the webhook token, or 401 saying what
 * was wrong. Runs before the body is read, so a refused request costs no parsing.
 */
export function requireWebhookToken(db: Db) {
  const challenge = { 'www-authenticate': 'Bearer realm="InboxPulse webhooks"' };
  return async (request: FastifyRequest, _reply: FastifyReply): Promise<void> => {
    const token = webhookTokenOf(request);
    if (!token) throw new AppError('unauthorized', TOKEN_MESSAGES.missing, challenge);
    const userId = await webhookTokenOwner(db, token);
    if (userId === undefined) {
      const subject = failureSubject(request.ip, token);
      const failures = await rateLimitUsedUp(db, TOKEN_RULES.failuresPerIpAndToken, subject);
      if (failures.usedUp) {
        const minutes = Math.max(1, Math.ceil(failures.retryAfter / 60));
        throw new AppError(
          'rate_limited',
          `Too many requests with this wrong webhook token from this address. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
          { 'retry-after': String(Math.max(1, failures.retryAfter)) },
        );
      }
      await countAgainst(db, TOKEN_RULES.failuresPerIpAndToken, subject);
      throw new AppError(
        'unauthorized',
        token.startsWith('ipk_') ? TOKEN_MESSAGES.apiKey : TOKEN_MESSAGES.invalid,
        challenge,
      );
    }
    await enforceRateLimit(db, TOKEN_RULES.requestsPerUser, String(userId));
    request.webhookUserId = userId;
  };
}

/** The token owner of a request that passed requireWebhookToken. */
export function webhookUser(request: FastifyRequest): number {
  if (request.webhookUserId === undefined) throw new AppError('unauthorized', TOKEN_MESSAGES.missing);
  return request.webhookUserId;
}
