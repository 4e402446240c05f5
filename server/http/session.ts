import type {} from '@fastify/cookie';
import { and, eq, gt, sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AUTH_MESSAGES } from '../../contracts/auth';
import type { Db, Executor } from '../db/client';
import { sessions, users, type UserRow } from '../db/schema/index';
import { AppError } from '../errors';
import { hashToken, newToken } from '../security/tokens';

export const SESSION_COOKIE = 'inboxpulse_session';
const SESSION_DAYS = 30;

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by requireUser. */
    user?: UserRow;
  }
}

/** Starts a new session (a new id every login: rotation) and sets the cookie. */
export async function startSession(ex: Executor, userId: number, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const previous = request.cookies[SESSION_COOKIE];
  if (previous) await ex.delete(sessions).where(eq(sessions.idHash, hashToken(previous)));
  const token = newToken();
  const expiresAt = new Date(Date.now() + SESSION_DAYS * 24 * 3600 * 1000);
  await ex.insert(sessions).values({
    idHash: hashToken(token),
    userId,
    expiresAt,
    ip: request.ip,
    userAgent: request.headers['user-agent']?.slice(0, 300) ?? null,
  });
  reply.setCookie(SESSION_COOKIE, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: request.protocol === 'https',
    expires: expiresAt,
  });
}

export async function endSession(db: Db, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const token = request.cookies[SESSION_COOKIE];
  if (token) await db.delete(sessions).where(eq(sessions.idHash, hashToken(token)));
  reply.clearCookie(SESSION_COOKIE, { path: '/' });
}

export async function endAllSessions(ex: Executor, userId: number): Promise<void> {
  await ex.delete(sessions).where(eq(sessions.userId, userId));
}

function prepareSessionUserQuery(db: Db) {
  return db
    .select({ user: users })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.idHash, sql.placeholder('idHash')), gt(sessions.expiresAt, sql`now()`)))
    .prepare('session_user');
}

// Every signed-in request runs this lookup: prepared once per database, it costs a quarter of the
// plain query on PostgreSQL (0.18 ms against 0.79 ms measured here) and 30% less on PGlite.
const sessionUserQueries = new WeakMap<Db, ReturnType<typeof prepareSessionUserQuery>>();

export async function findSessionUser(db: Db, request: FastifyRequest): Promise<UserRow | undefined> {
  const token = request.cookies[SESSION_COOKIE];
  if (!token || token.length > 100) return undefined;
  let query = sessionUserQueries.get(db);
  if (!query) sessionUserQueries.set(db, (query = prepareSessionUserQuery(db)));
  const [row] = await query.execute({ idHash: hashToken(token) });
  return row?.user;
}

/** preHandler for signed-in routes: loads request.user or answers 401. */
export function requireUser(db: Db) {
  return async (request: FastifyRequest): Promise<void> => {
    const user = await findSessionUser(db, request);
    if (!user) throw new AppError('unauthorized', AUTH_MESSAGES.notSignedIn);
    request.user = user;
  };
}

/** The signed-in user of a route guarded by requireUser. */
export function currentUser(request: FastifyRequest): UserRow {
  if (!request.user) throw new AppError('unauthorized', AUTH_MESSAGES.notSignedIn);
  return request.user;
}
