import { eq, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../platform/db/client';
import { users, type UserRow } from '../platform/db/schema/index';

export type { UserRow };

export async function findUserById(ex: Executor, id: number): Promise<UserRow | undefined> {
  const [row] = await ex.select().from(users).where(eq(users.id, id));
  return row;
}

/** Usernames are unique regardless of case, so the lookup ignores case too. */
export async function findUserByUsername(ex: Executor, username: string): Promise<UserRow | undefined> {
  const [row] = await ex
    .select()
    .from(users)
    .where(eq(sql`lower(${users.username})`, username.toLowerCase()));
  return row;
}

export async function findUserByEmail(ex: Executor, email: string): Promise<UserRow | undefined> {
  const [row] = await ex.select().from(users).where(eq(users.email, email.toLowerCase()));
  return row;
}

/** What people sign in with: their e-mail address (anything with an @) or their username. */
export function findUserByLogin(ex: Executor, login: string): Promise<UserRow | undefined> {
  return login.includes('@') ? findUserByEmail(ex, login) : findUserByUsername(ex, login);
}

type UserInsert = typeof users.$inferInsert;
/** Column changes; a value may be SQL (e.g. coalesce) evaluated by the database. */
export type UserChanges = { [K in keyof UserInsert]?: UserInsert[K] | SQL };

/**
 * Every process caches signed-in users (http/session-cache.ts): once the change commits, the caller
 * calls forgetCachedUser so its own next request sees it; other processes hear it from the database.
 */
export async function updateUser(ex: Executor, id: number, changes: UserChanges): Promise<UserRow> {
  const [row] = await ex
    .update(users)
    .set({ ...changes, updatedAt: sql`now()` })
    .where(eq(users.id, id))
    .returning();
  return row;
}

export type NewUser = Pick<UserInsert, 'username' | 'email' | 'passwordHash' | 'couponCode'>;

/** A new account, its address verified at once when `emailVerified` (no SMTP: nobody could read a link). */
export async function insertUser(ex: Executor, user: NewUser, emailVerified: boolean): Promise<UserRow> {
  const [row] = await ex
    .insert(users)
    .values({ ...user, emailVerifiedAt: emailVerified ? sql`now()` : null })
    .returning();
  return row;
}

/** Following a mailed link proves the address is theirs: verified now, or when it first was; with any other `changes`. */
export async function markEmailVerified(ex: Executor, id: number, changes: UserChanges = {}): Promise<UserRow> {
  return updateUser(ex, id, { ...changes, emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, now())` });
}

/**
 * Locks the user's row for the rest of the transaction: a write that refers to the user (a job's
 * outbox mail, a new alert) waits and then fails on its foreign key, instead of slipping in after the
 * explicit deletes ran. Undefined when the user is gone already.
 */
export async function lockUser(ex: Executor, id: number): Promise<UserRow | undefined> {
  const [row] = await ex.select().from(users).where(eq(users.id, id)).for('update');
  return row;
}

/** The row every owned table refers to ON DELETE CASCADE (the sessions among them). */
export async function deleteUserRow(ex: Executor, id: number): Promise<void> {
  await ex.delete(users).where(eq(users.id, id));
}
