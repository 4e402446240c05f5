import { and, desc, eq, gt, lt, ne, sql } from 'drizzle-orm';
import type { Db, Executor } from '../db/client';
import { sessions, users, type UserRow } from '../db/schema/index';

export type NewSession = Pick<typeof sessions.$inferInsert, 'idHash' | 'userId' | 'expiresAt' | 'ip' | 'userAgent'>;

export async function insertSession(db: Db, session: NewSession): Promise<void> {
  await db.insert(sessions).values(session);
}

export async function deleteSession(db: Db, idHash: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.idHash, idHash));
}

/** Every session of the user, inside the caller's transaction. */
export async function deleteUserSessions(ex: Executor, userId: number): Promise<void> {
  await ex.delete(sessions).where(eq(sessions.userId, userId));
}

export type SessionRow = Pick<typeof sessions.$inferSelect, 'idHash' | 'createdAt' | 'expiresAt' | 'ip' | 'userAgent'>;

/** The user's live (unexpired) sessions, newest first. */
export async function listUserSessions(db: Db, userId: number): Promise<SessionRow[]> {
  return db
    .select({
      idHash: sessions.idHash,
      createdAt: sessions.createdAt,
      expiresAt: sessions.expiresAt,
      ip: sessions.ip,
      userAgent: sessions.userAgent,
    })
    .from(sessions)
    .where(and(eq(sessions.userId, userId), gt(sessions.expiresAt, sql`now()`)))
    .orderBy(desc(sessions.createdAt), sessions.idHash);
}

/** Ends the user's sessions whose hash starts with `idPrefix` (the id the API shows); returns their hashes. */
export async function deleteUserSessionByPrefix(db: Db, userId: number, idPrefix: string): Promise<string[]> {
  const rows = await db
    .delete(sessions)
    .where(and(eq(sessions.userId, userId), eq(sql`left(${sessions.idHash}, ${idPrefix.length})`, idPrefix)))
    .returning({ idHash: sessions.idHash });
  return rows.map((r) => r.idHash);
}

/** Every session of the user but `keepIdHash`, inside the caller's transaction; returns how many ended. */
export async function deleteOtherUserSessions(ex: Executor, userId: number, keepIdHash: string): Promise<number> {
  const rows = await ex
    .delete(sessions)
    .where(and(eq(sessions.userId, userId), ne(sessions.idHash, keepIdHash)))
    .returning({ idHash: sessions.idHash });
  return rows.length;
}

function prepareSessionUserQuery(db: Db) {
  return db
    .select({ user: users, expiresAt: sessions.expiresAt })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.idHash, sql.placeholder('idHash')), gt(sessions.expiresAt, sql`now()`)))
    .prepare('session_user');
}

// Runs on a cache miss, and on every signed-in request while the cache cannot be trusted (its
// LISTEN connection is down) or where there is none: prepared once per database, it costs a quarter
// of the plain query (0.18 ms against 0.79 ms measured here on PostgreSQL).
const sessionUserQueries = new WeakMap<Db, ReturnType<typeof prepareSessionUserQuery>>();

/** The user of a live (unexpired) session, with the session's expiry; undefined for none. */
export async function loadSessionUser(db: Db, idHash: string): Promise<{ user: UserRow; expiresAt: Date } | undefined> {
  let query = sessionUserQueries.get(db);
  if (!query) sessionUserQueries.set(db, (query = prepareSessionUserQuery(db)));
  const [row] = await query.execute({ idHash });
  return row;
}

/** Drops expired sessions (the maintenance job); returns how many. */
export async function purgeExpiredSessions(db: Db): Promise<number> {
  const rows = await db
    .delete(sessions)
    .where(lt(sessions.expiresAt, sql`now()`))
    .returning({ id: sessions.idHash });
  return rows.length;
}
