import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { API_KEY_PREFIX } from '@contracts/api-keys';
import type { Db } from '../db/client';
import type { Notifications } from '../db/notifications';
import type { UserRow } from '../db/schema/index';
import { AppError } from '../errors';
import { hashPresentedToken } from '../security/tokens';
import { ApiRateLimiter, type ApiQuota } from './api-rate-limit';
import { loadApiKeyUser, markApiKeyUsed } from './api-keys.repo';
import { hookList } from './route-hooks';
import { SessionCache, USER_CHANGED } from './session-cache';

/** Migration 0017's trigger sends this once a key is replaced or revoked; payload: the old key's hash. */
export const API_KEY_CHANGED = 'api_key_changed';

export const INVALID_API_KEY = 'Invalid API key';
export const SESSION_ONLY = 'API keys cannot be used here: sign in to manage keys, tokens and the account';

/**
 * Routes a bearer key never opens, whatever the key: a leaked key must not mint a new key, read or
 * change the account's password and sessions, or delete the account. Prefixes of route paths.
 */
const SESSION_ONLY_PATHS = ['/api/api-keys', '/api/webhook-tokens', '/api/account'];

/** ipk_ and the 43 base64url characters of 32 random bytes: anything else is refused without a lookup. */
const KEY_FORMAT = new RegExp(`^${API_KEY_PREFIX}[A-Za-z0-9_-]{43}$`);
const NEVER = new Date(8.64e15);
const MAX_MISSES = 10_000;
const LAST_USED_EVERY_MS = 60_000;

interface BearerState {
  /** Keys cached as sessions that never expire: the same invalidation (notifications, write-through, reconnect). */
  keys?: SessionCache;
  /**
   * Hashes no key had when asked. Safe to keep without invalidation: a key generated later has 256
   * new random bits, so it is never one that was asked for before.
   */
  misses: Set<string>;
  /** When this process last wrote last_used_at of each key. */
  lastUse: Map<string, number>;
  limiter: ApiRateLimiter;
  terms?: ApiKeyTerms;
}

/** What a key may do under its user's plan: the plans capability says it (plans/plan-gate.service.ts apiKeyTerms). */
export interface ApiKeyTerms {
  /** Throws the 403 of a plan without API access. */
  requireAccess(user: UserRow): void;
  requestsPerHour(user: UserRow): number;
}

const states = new WeakMap<Db, BearerState>();

function stateOf(db: Db): BearerState {
  let state = states.get(db);
  if (!state) {
    state = {
      misses: new Set(),
      lastUse: new Map(),
      limiter: new ApiRateLimiter(db),
    };
    states.set(db, state);
  }
  return state;
}

/** Serves API keys from memory, kept current through `notifications` (like sessions: session.ts cacheSessions). */
export async function cacheApiKeys(db: Db, notifications: Notifications): Promise<void> {
  const cache = new SessionCache(notifications);
  notifications.onReconnect(() => cache.clear());
  await notifications.subscribe(API_KEY_CHANGED, (keyHash) => cache.forgetSession(keyHash));
  await notifications.subscribe(USER_CHANGED, (userId) => cache.forgetUser(Number(userId)));
  stateOf(db).keys = cache;
}

/** Keys answer under `terms` from now on; until then a bearer request fails closed (500), never open. */
export function useApiKeyTerms(db: Db, terms: ApiKeyTerms): void {
  stateOf(db).terms = terms;
}

function termsOf(state: BearerState): ApiKeyTerms {
  if (!state.terms) throw new Error('API keys have no plan terms: the api-keys routes set them (useApiKeyTerms)');
  return state.terms;
}

/** Drops a replaced or revoked key from this process's cache at once (others hear it from the trigger). */
export function forgetCachedApiKey(db: Db, keyHash: string): void {
  stateOf(db).keys?.forgetSession(keyHash);
}

/** The token of an `Authorization: Bearer ...` header; undefined when the request carries none. */
export function bearerTokenOf(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header || header.length < 7 || header.slice(0, 7).toLowerCase() !== 'bearer ') return undefined;
  return header.slice(7).trim();
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * A route of the browser's session only: a bearer request is refused with this message before
     * anything else runs. Routes under SESSION_ONLY_PATHS get SESSION_ONLY; billing and the Google
     * sign-in's start set their own. The OpenAPI document says these take the session cookie only.
     */
    sessionOnly?: string;
  }
}

/**
 * Puts the refusal of API keys first on the session-only routes (config.sessionOnly, and every route
 * under SESSION_ONLY_PATHS) as they are added: decided once per route, by its path pattern (what a
 * percent-encoded request path cannot dodge), instead of a route look-up on every bearer request
 * (bench:api). Added before the routes, and before the OpenAPI document, which reads the config.
 */
export function refuseKeysOnSessionOnlyRoutes(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    const underSessionOnlyPath = SESSION_ONLY_PATHS.some((p) => route.url === p || route.url.startsWith(`${p}/`));
    const message = route.config?.sessionOnly ?? (underSessionOnlyPath ? SESSION_ONLY : undefined);
    if (message === undefined) return;
    route.config = { ...route.config, sessionOnly: message };
    const refuseBearer = async (request: FastifyRequest): Promise<void> => {
      if (bearerTokenOf(request) !== undefined) throw new AppError('forbidden', message);
    };
    route.onRequest = [refuseBearer, ...hookList(route.onRequest)];
  });
}

/**
 * The user of a bearer request, for requireUser: refused on session-only routes (403, by
 * refuseKeysOnSessionOnlyRoutes, before this runs), for an
 * unknown key (401), without the plan's api_access (403) and past the hourly quota (429). Every
 * answer after the plan check carries the X-RateLimit-* headers.
 */
export async function authenticateApiKey(
  db: Db,
  token: string,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<UserRow> {
  const state = stateOf(db);
  const keyHash = KEY_FORMAT.test(token) ? hashPresentedToken(token) : undefined;
  const user = keyHash === undefined ? undefined : await findApiKeyUser(db, state, keyHash);
  if (!user || keyHash === undefined) throw invalidKey();
  const terms = termsOf(state);
  terms.requireAccess(user);
  answerQuota(reply, await state.limiter.take(user.id, terms.requestsPerHour(user)));
  noteUse(db, state, keyHash, request);
  return user;
}

/**
 * authenticateApiKey from memory: the key cached and a block of the quota in hand, as for nearly every
 * request of a busy client. Undefined when it needs the database (then nothing was counted); throws
 * what authenticateApiKey throws.
 */
export function authenticateApiKeyNow(
  db: Db,
  token: string,
  request: FastifyRequest,
  reply: FastifyReply,
): UserRow | undefined {
  const state = stateOf(db);
  if (!KEY_FORMAT.test(token)) throw invalidKey();
  const keyHash = hashPresentedToken(token);
  if (state.misses.has(keyHash)) throw invalidKey();
  const user = state.keys?.peek(keyHash);
  if (!user) return undefined;
  const terms = termsOf(state);
  terms.requireAccess(user);
  const quota = state.limiter.takeNow(user.id, terms.requestsPerHour(user));
  if (!quota) return undefined;
  answerQuota(reply, quota);
  noteUse(db, state, keyHash, request);
  return user;
}

// RFC 6750's challenge: a client library knows the key, not the request, was refused.
const invalidKey = () =>
  new AppError('unauthorized', INVALID_API_KEY, { 'www-authenticate': 'Bearer error="invalid_token"' });

/** The X-RateLimit-* headers, and 429 with Retry-After once the hour's quota is used. */
function answerQuota(reply: FastifyReply, quota: ApiQuota): void {
  const resetSeconds = Math.ceil(quota.resetAtMs / 1000);
  reply.headers({
    'x-ratelimit-limit': quota.limit,
    'x-ratelimit-remaining': quota.remaining,
    'x-ratelimit-reset': resetSeconds,
  });
  if (quota.allowed) return;
  const wait = Math.max(1, resetSeconds - Math.floor(Date.now() / 1000));
  const minutes = Math.ceil(wait / 60);
  throw new AppError(
    'rate_limited',
    `API rate limit reached (${quota.limit} requests an hour). Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
    {
      'retry-after': String(wait),
    },
  );
}

async function findApiKeyUser(db: Db, state: BearerState, keyHash: string): Promise<UserRow | undefined> {
  if (state.misses.has(keyHash)) return undefined;
  const lookup = async () => {
    const user = await loadApiKeyUser(db, keyHash);
    return user && { user, expiresAt: NEVER };
  };
  const user = state.keys ? await state.keys.find(keyHash, lookup) : (await lookup())?.user;
  if (!user) {
    if (state.misses.size >= MAX_MISSES) state.misses.clear();
    state.misses.add(keyHash);
  }
  return user;
}

/** last_used_at to the minute, written at most once a minute per key and process, off the request's path. */
function noteUse(db: Db, state: BearerState, keyHash: string, request: FastifyRequest): void {
  const now = Date.now();
  const last = state.lastUse.get(keyHash);
  if (last !== undefined && now - last < LAST_USED_EVERY_MS) return;
  if (state.lastUse.size >= MAX_MISSES) state.lastUse.clear();
  state.lastUse.set(keyHash, now);
  markApiKeyUsed(db, keyHash).catch((err) =>
    request.log.warn({ err }, 'could not record when the API key was last used'),
  );
}
