import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { AUTH_MESSAGES } from '@contracts/auth';
import type { Db, Executor } from '../db/client';
import type { Notifications } from '../db/notifications';
import type { UserRow } from '../db/schema/index';
import { AppError } from '../errors';
import { hashPresentedToken, hashToken, newToken } from '../security/tokens';
import { authenticateApiKey, authenticateApiKeyNow, bearerTokenOf, cacheApiKeys } from './api-key-auth';
import { listenForSessionChanges, SessionCache } from './session-cache';
import { clearSessionCookie, readSessionCookie, setSessionCookie } from './session-cookie';
import { deleteSession, deleteUserSessions, insertSession, loadSessionUser } from './sessions.repo';

const SESSION_DAYS = 30;

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by requireUser. */
    user?: UserRow;
  }
}

// One cache per database handle, made by buildApp (cacheSessions). Without one (a script, a worker)
// every lookup goes to the database.
const sessionCaches = new WeakMap<Db, SessionCache>();

/** Serves this app's signed-in requests from memory, kept current through `notifications` (session-cache.ts). */
export async function cacheSessions(db: Db, notifications: Notifications): Promise<void> {
  const cache = new SessionCache(notifications);
  await listenForSessionChanges(cache, notifications);
  sessionCaches.set(db, cache);
  await cacheApiKeys(db, notifications);
}

/**
 * Drops what this process cached about a user, so its very next request sees a change made here
 * (password, plan, tour, deletion). Call it after the change commits: a lookup that ran in between
 * would cache the old row again. Other processes hear it from the database (migration 0007).
 */
export function forgetCachedUser(db: Db, userId: number): void {
  sessionCaches.get(db)?.forgetUser(userId);
}

/** Starts a new session (a new id every login: rotation) and sets the cookie. */
export async function startSession(
  db: Db,
  userId: number,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<void> {
  const previous = readSessionCookie(request);
  if (previous) await endStoredSession(db, hashToken(previous));
  const token = newToken();
  const expiresAt = new Date(Date.now() + SESSION_DAYS * 24 * 3600 * 1000);
  await insertSession(db, {
    idHash: hashToken(token),
    userId,
    expiresAt,
    ip: request.ip,
    userAgent: userAgentOf(request),
  });
  setSessionCookie(request, reply, token, expiresAt);
}

/** Logout: the session is refused from the next request on, here at once, in other processes within a moment. */
export async function endSession(db: Db, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const token = readSessionCookie(request);
  if (token) await endStoredSession(db, hashToken(token));
  clearSessionCookie(reply);
}

async function endStoredSession(db: Db, idHash: string): Promise<void> {
  await deleteSession(db, idHash);
  sessionCaches.get(db)?.forgetSession(idHash);
}

/** Inside the caller's transaction; the caller calls forgetCachedUser once it commits. */
export async function endAllSessions(ex: Executor, userId: number): Promise<void> {
  await deleteUserSessions(ex, userId);
}

/**
 * The user of the request's session cookie, if it is a live session: from this process's cache when it
 * can. A request that carries an API key is not a session's, whatever cookies came with it.
 */
export async function findSessionUser(db: Db, request: FastifyRequest): Promise<UserRow | undefined> {
  const token = readSessionCookie(request);
  if (!token || bearerTokenOf(request) !== undefined) return undefined;
  const idHash = hashPresentedToken(token);
  const cache = sessionCaches.get(db);
  if (!cache) return (await loadSessionUser(db, idHash))?.user;
  return cache.find(idHash, () => loadSessionUser(db, idHash));
}

/**
 * onRequest hook of signed-in routes: loads request.user or answers 401. The user is the session
 * cookie's, or an API key's when the request says `Authorization: Bearer ipk_...` (api-key-auth.ts:
 * plan gate, hourly quota, session-only routes); a route never knows which it was. A bearer request
 * is never read as a session: its cookies are ignored and it gets none.
 * A callback hook, so a request memory can answer (a cached session or key with quota in hand) goes
 * on at once, without a promise or a wait for the next microtask (bench:api); the rest signIn.
 */
export function requireUser(db: Db) {
  return (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void => {
    let user: UserRow | undefined;
    try {
      user = userFromMemory(db, request, reply);
    } catch (err) {
      return done(err as Error);
    }
    if (user) {
      request.user = user;
      return done();
    }
    signIn(db, request, reply).then(() => done(), done);
  };
}

/** requireUser's work as a promise: for a hook that adds a condition of its own first. */
export async function signIn(db: Db, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const bearer = bearerTokenOf(request);
  if (bearer !== undefined) {
    request.user = await authenticateApiKey(db, bearer, request, reply);
    return;
  }
  const user = await findSessionUser(db, request);
  if (!user) throw new AppError('unauthorized', AUTH_MESSAGES.notSignedIn);
  request.user = user;
}

/** The request's user when this process's memory can answer for it; undefined when the database must. */
function userFromMemory(db: Db, request: FastifyRequest, reply: FastifyReply): UserRow | undefined {
  const bearer = bearerTokenOf(request);
  if (bearer !== undefined) return authenticateApiKeyNow(db, bearer, request, reply);
  return cachedSessionUser(db, request);
}

/** The user of the request's session cookie from this process's cache, when it holds a live entry. */
export function cachedSessionUser(db: Db, request: FastifyRequest): UserRow | undefined {
  const token = readSessionCookie(request);
  if (!token || bearerTokenOf(request) !== undefined) return undefined;
  return sessionCaches.get(db)?.peek(hashPresentedToken(token));
}

/** The signed-in user of a route guarded by requireUser. */
export function currentUser(request: FastifyRequest): UserRow {
  if (!request.user) throw new AppError('unauthorized', AUTH_MESSAGES.notSignedIn);
  return request.user;
}

/** The browser's User-Agent as sessions keep it (bounded): what makes a device known at login. */
export function userAgentOf(request: FastifyRequest): string | null {
  return request.headers['user-agent']?.slice(0, 300) ?? null;
}
