// Two app instances on one database, as two web processes behind a load balancer run: each caches
// sessions in memory, and what ends or changes a session in one is refused or seen in the other
// within a second (issue 9), through the database's notifications (migration 0007).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueResetLink } from '../../accounts/reset-link.service';
import { createTestApp, signUp, TestClient, type TestApp } from '../../test/test-app';
import { queriesDuring } from '../../test/queries-during';

const WITHIN_MS = 1000;

let a: TestApp;
let b: TestApp;
beforeAll(async () => {
  a = await createTestApp(); // no SMTP
  b = await createTestApp({ sameDatabaseAs: a });
});
afterAll(async () => {
  await b?.close();
  await a?.close();
});

/** Polls `check` until it holds; fails if it still does not after `ms`. Returns how long it took. */
async function within(ms: number, what: string, check: () => Promise<boolean>): Promise<number> {
  const started = performance.now();
  for (;;) {
    if (await check()) return performance.now() - started;
    if (performance.now() - started > ms) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** A user signed in on A, with the same browser session presented to B; both have it in memory. */
async function signedInOnBoth() {
  const { client: onA, user, password } = await signUp(a.app);
  const onB = new TestClient(b.app, onA.ip);
  onB.cookie = onA.cookie;
  for (const client of [onA, onB]) {
    expect((await client.get('/api/user')).statusCode).toBe(200);
    // Served from memory from now on: no query for the second request.
    const t = client === onA ? a : b;
    expect(
      await queriesDuring(t.database.pool, async () => expect((await client.get('/api/user')).statusCode).toBe(200)),
    ).toBe(0);
  }
  return { onA, onB, user, password };
}

const refused = (client: TestClient) => async () => (await client.get('/api/user')).statusCode === 401;

describe('sessions cached in two processes on one database', () => {
  it('serves repeated signed-in requests from memory in each process', async () => {
    const { onA, onB } = await signedInOnBoth();
    const requests = async (client: TestClient) => {
      for (let i = 0; i < 20; i++) expect((await client.get('/api/user')).statusCode).toBe(200);
    };
    expect(await queriesDuring(a.database.pool, () => requests(onA))).toBe(0);
    expect(await queriesDuring(b.database.pool, () => requests(onB))).toBe(0);
  });

  it('logout: refused at once where it happened, within a second in the other process', async () => {
    const { onA, onB } = await signedInOnBoth();
    const replayOnA = new TestClient(a.app, onA.ip);
    replayOnA.cookie = onA.cookie;
    expect((await onA.post('/api/logout')).statusCode).toBe(200);
    expect((await replayOnA.get('/api/user')).statusCode).toBe(401);
    await within(WITHIN_MS, 'B refuses the logged-out session', refused(onB));
  });

  it('password reset: every session refused at once where it happened, within a second elsewhere', async () => {
    const { onA, onB, user } = await signedInOnBoth();
    const anon = new TestClient(a.app, '127.8.0.1');
    // No SMTP: the link is made as an operator makes it (npm run reset-link).
    const token = new URL((await issueResetLink(a.database.db, a.env.APP_URL, user.email)).link).searchParams.get(
      'token',
    )!;
    expect((await anon.post('/api/reset-password', { token, password: 'a brand new secret' })).statusCode).toBe(200);
    expect((await onA.get('/api/user')).statusCode).toBe(401);
    await within(WITHIN_MS, 'B refuses the sessions a reset ended', refused(onB));
  });

  it('a user change (the tour) shows at once where it happened, within a second elsewhere', async () => {
    const { onA, onB } = await signedInOnBoth();
    expect((await onA.post('/api/user/complete-tour')).statusCode).toBe(200);
    expect((await onA.get('/api/user')).json().hasCompletedTour).toBe(true);
    await within(
      WITHIN_MS,
      'B sees the completed tour',
      async () => (await onB.get('/api/user')).json().hasCompletedTour === true,
    );
  });

  // No route deletes an account or changes a plan yet: an operator's SQL stands in, which also shows
  // that the triggers, not the code paths, are what tell the processes.
  it('account deletion, by whatever means: refused everywhere within a second', async () => {
    const { onA, onB, user } = await signedInOnBoth();
    await a.database.pool.query(`DELETE FROM users WHERE id = $1`, [user.id]);
    await within(WITHIN_MS, 'A refuses the deleted account', refused(onA));
    await within(WITHIN_MS, 'B refuses the deleted account', refused(onB));
  });

  it('a plan change and an expired session made in SQL: seen everywhere within a second', async () => {
    const { onA, onB, user } = await signedInOnBoth();
    await a.database.pool.query(`UPDATE users SET subscription_plan = 'professional' WHERE id = $1`, [user.id]);
    for (const client of [onA, onB]) {
      await within(
        WITHIN_MS,
        'the new plan shows',
        async () => (await client.get('/api/user')).json().subscriptionPlan === 'professional',
      );
    }
    await a.database.pool.query(`UPDATE sessions SET expires_at = now() - interval '1 second' WHERE user_id = $1`, [
      user.id,
    ]);
    await within(WITHIN_MS, 'A refuses the expired session', refused(onA));
    await within(WITHIN_MS, 'B refuses the expired session', refused(onB));
  });

  it('a dropped LISTEN connection: changes made meanwhile are seen once it is back', async () => {
    const { onA, onB, user } = await signedInOnBoth();
    // Both processes' notification connections to this database (application_name from db/notifications.ts).
    await a.database.pool.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'inboxpulse-listen'`,
    );
    await a.database.pool.query(`UPDATE users SET has_completed_tour = true WHERE id = $1`, [user.id]);
    for (const client of [onA, onB]) {
      await within(
        WITHIN_MS,
        'the change shows',
        async () => (await client.get('/api/user')).json().hasCompletedTour === true,
      );
    }
    await within(
      5000,
      'both LISTEN connections are back',
      async () => a.notifications.listening && b.notifications.listening,
    );
    // Trusted again: served from memory.
    await onB.get('/api/user');
    expect(await queriesDuring(b.database.pool, () => onB.get('/api/user'))).toBe(0);
  });
});
