import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createHash, hash } from 'node:crypto';
import type { Db } from '../db/client';
import { AppError } from '../errors';
import { countAgainst, RATE_RULES, rateLimitUsedUp } from '../security/rate-limit';
import {
  claimIdempotencyKey,
  findIdempotencyKey,
  releaseIdempotencyKey,
  storeIdempotentAnswer,
} from './idempotency.repo';
import { hookList } from './route-hooks';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A POST that creates something: an Idempotency-Key header replays its first answer (acceptIdempotencyKeys). */
    idempotent?: boolean;
  }
  interface FastifyRequest {
    /** The Idempotency-Key this request claimed, until its answer is stored. */
    idempotencyClaim?: { userId: number; key: string };
  }
}

export const IDEMPOTENCY_MESSAGES = {
  badKey: 'Idempotency-Key must be 1 to 255 printable ASCII characters',
  reused: 'This Idempotency-Key was already used with a different request: use a new key for a new request',
  inProgress: 'A request with this Idempotency-Key is still being processed: retry once it has finished',
  tooManyKeys: (minutes: number) =>
    `Too many new Idempotency-Keys this hour (${RATE_RULES.idempotencyKeysPerUser.limit.toLocaleString('en-US')} per account): retry in ${minutes} minute${minutes === 1 ? '' : 's'}, or send the request without one.`,
} as const;

const KEY_FORMAT = /^[\x20-\x7E]{1,255}$/;
/** Claims are retried this often when the row they met vanished in between (purged, or released by a failing first request). */
const CLAIM_TRIES = 3;

/**
 * Idempotency keys for the routes of this plugin whose config says `idempotent: true`, as payment
 * and e-mail APIs have them (ADR 026): a client that retries a POST after a timeout gets the first
 * answer again instead of a second domain or test. Per user and key for 24 hours:
 * - the same request again: the first answer's status and body, with `Idempotent-Replayed: true`;
 * - the same key with another request (method, URL or body): 422;
 * - while the first request is still running: 409.
 * 5xx and 429 answers are not kept, so a retry runs again. Runs after requireUser and validation
 * (a preHandler), so it knows the user and never keeps an answer to an unauthenticated request.
 */
export function acceptIdempotencyKeys(app: FastifyInstance, db: Db): void {
  const claimKey = async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> => {
    const key = request.headers['idempotency-key'];
    if (key === undefined || !request.user) return;
    if (typeof key !== 'string' || !KEY_FORMAT.test(key))
      throw new AppError('validation_error', IDEMPOTENCY_MESSAGES.badKey);
    const userId = request.user.id;
    const requestHash = hashOfRequest(request);
    // Past the hourly cap a new key is refused, while a key already stored still answers as it did.
    const cap = await rateLimitUsedUp(db, RATE_RULES.idempotencyKeysPerUser, String(userId));
    for (let attempt = 0; attempt < CLAIM_TRIES; attempt++) {
      if (!cap.usedUp && (await claimIdempotencyKey(db, userId, key, requestHash))) {
        await countAgainst(db, RATE_RULES.idempotencyKeysPerUser, String(userId));
        request.idempotencyClaim = { userId, key };
        return;
      }
      const first = await findIdempotencyKey(db, userId, key);
      if (!first && cap.usedUp) {
        const seconds = Math.max(1, cap.retryAfter);
        throw new AppError('rate_limited', IDEMPOTENCY_MESSAGES.tooManyKeys(Math.ceil(seconds / 60)), {
          'retry-after': String(seconds),
        });
      }
      if (!first) continue;
      if (first.requestHash !== requestHash) throw new AppError('idempotency_key_reused', IDEMPOTENCY_MESSAGES.reused);
      if (first.status === null) throw new AppError('conflict', IDEMPOTENCY_MESSAGES.inProgress);
      return replay(reply, first.status, first.responseBody ?? '');
    }
    throw new AppError('conflict', IDEMPOTENCY_MESSAGES.inProgress);
  };

  const storeAnswer = async (request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> => {
    const claim = request.idempotencyClaim;
    if (!claim) return payload;
    request.idempotencyClaim = undefined;
    const status = reply.statusCode;
    if (status >= 500 || status === 429 || typeof payload !== 'string')
      await releaseIdempotencyKey(db, claim.userId, claim.key);
    else await storeIdempotentAnswer(db, claim.userId, claim.key, status, payload);
    return payload;
  };

  // The hooks are added to the idempotent routes only: every other request of the plugin would pay
  // two async hooks for nothing (bench:api).
  app.addHook('onRoute', (route) => {
    if (!route.config?.idempotent) return;
    route.preHandler = [...hookList(route.preHandler), claimKey];
    route.onSend = [...hookList(route.onSend), storeAnswer];
  });
}

function replay(reply: FastifyReply, status: number, body: string): FastifyReply {
  return reply
    .code(status)
    .header('content-type', 'application/json; charset=utf-8')
    .header('idempotent-replayed', 'true')
    .send(body);
}

/**
 * SHA-256 of method, URL and body. Files (a raw upload's Buffer, an upload form's file data) enter by
 * their own SHA-256, so a 10 MB report is not turned into JSON; a form's random boundary does not count.
 */
function hashOfRequest(request: FastifyRequest): string {
  const digest = createHash('sha256').update(`${request.method} ${request.url}\n`);
  const body: unknown = request.body;
  if (Buffer.isBuffer(body)) digest.update(body);
  else if (body !== undefined) {
    digest.update(
      JSON.stringify(body, function (this: Record<string, unknown>, name, value) {
        const original = this[name];
        return Buffer.isBuffer(original) ? `sha256:${hash('sha256', original, 'hex')}` : value;
      }) ?? '',
    );
  }
  return digest.digest('hex');
}
