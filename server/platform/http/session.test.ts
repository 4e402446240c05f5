// The session cache in the process that makes a change: it must drop the entry itself (write-through),
// without waiting for the database's notification. The process here is deaf: its LISTEN connection
// counts as up but never delivers, so whatever it refuses it refuses on its own.
import { eq, sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/client';
import type { Notifications } from '../db/notifications';
import { sessions, users } from '../db/schema/index';
import { newToken, hashToken } from '../security/tokens';
import { openTestDatabase } from '../../test/test-database';
import { updateUser } from '../../accounts/users.repo';
import { cacheSessions, endSession, findSessionUser, forgetCachedUser, startSession } from './session';
import { SESSION_COOKIE } from './session-cookie';
import { queriesDuring } from '../../test/queries-during';

const deaf: Notifications = {
  listening: true,
  subscribe: async () => {},
  onReconnect: () => {},
  close: async () => {},
};

let database: Database;
beforeAll(async () => {
  database = await openTestDatabase();
  await cacheSessions(database.db, deaf);
});
afterAll(() => database.close());

let counter = 0;
async function signedIn(): Promise<{ userId: number; token: string }> {
  counter++;
  const [user] = await database.db
    .insert(users)
    .values({ username: `cached${counter}`, email: `cached${counter}@example.com`, passwordHash: 'not used here' })
    .returning();
  const token = newToken();
  await database.db
    .insert(sessions)
    .values({ idHash: hashToken(token), userId: user.id, expiresAt: new Date(Date.now() + 3600_000) });
  return { userId: user.id, token };
}

const requestWith = (token?: string) =>
  ({
    headers: token ? { cookie: `${SESSION_COOKIE}=${token}` } : {},
    ip: '127.0.0.1',
    protocol: 'http',
  }) as unknown as FastifyRequest;
const reply = { header: () => reply } as unknown as FastifyReply;

/** How many queries `action` sends through the app's pool. */

describe('the session cache in the process that made the change', () => {
  it('answers a signed-in request from memory after the first lookup', async () => {
    const { userId, token } = await signedIn();
    expect(await queriesDuring(database.pool, () => findSessionUser(database.db, requestWith(token)))).toBe(1);
    let found;
    expect(
      await queriesDuring(database.pool, async () => (found = await findSessionUser(database.db, requestWith(token)))),
    ).toBe(0);
    expect(found).toMatchObject({ id: userId });
    // Proof that memory answered: a change this deaf process is not told about goes unseen.
    await database.db.delete(sessions).where(eq(sessions.idHash, hashToken(token)));
    expect(await findSessionUser(database.db, requestWith(token))).toMatchObject({ id: userId });
  });

  it('refuses a session on the very next request after its logout here', async () => {
    const { token } = await signedIn();
    expect(await findSessionUser(database.db, requestWith(token))).toBeDefined();
    await endSession(database.db, requestWith(token), reply);
    expect(await findSessionUser(database.db, requestWith(token))).toBeUndefined();
  });

  it('refuses the session a new login replaced (rotation)', async () => {
    const { userId, token } = await signedIn();
    expect(await findSessionUser(database.db, requestWith(token))).toBeDefined();
    await startSession(database.db, userId, requestWith(token), reply);
    expect(await findSessionUser(database.db, requestWith(token))).toBeUndefined();
  });

  it('shows a user change made here on the very next request', async () => {
    const { userId, token } = await signedIn();
    expect((await findSessionUser(database.db, requestWith(token)))?.hasCompletedTour).toBe(false);
    await updateUser(database.db, userId, { hasCompletedTour: true, subscriptionPlan: sql`'professional'` });
    forgetCachedUser(database.db, userId);
    expect(await findSessionUser(database.db, requestWith(token))).toMatchObject({
      hasCompletedTour: true,
      subscriptionPlan: 'professional',
    });
  });

  it('refuses a session without a cookie, or with an absurd one, without asking the database', async () => {
    expect(await queriesDuring(database.pool, () => findSessionUser(database.db, requestWith()))).toBe(0);
    expect(await queriesDuring(database.pool, () => findSessionUser(database.db, requestWith('x'.repeat(101))))).toBe(
      0,
    );
  });
});
