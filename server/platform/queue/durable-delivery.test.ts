import { eq, sql } from 'drizzle-orm';
import { integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../db/client';
import { openTestDatabase } from '../../test/test-database';
import {
  attemptAllowed,
  claimItem,
  claimWithinLimits,
  exponentialBackoff,
  failAttempt,
  findStranded,
  nextRetry,
  releaseItem,
  type ClaimedTable,
  type FairTable,
  type InFlightLimit,
  type RetryPolicy,
} from './durable-delivery';

// A table of the usual shape (the outbox's and alert messages'), made for this test only.
const items = pgTable('durable_test_items', {
  id: serial().primaryKey(),
  userId: integer().notNull(),
  endpointId: integer().notNull().default(0),
  kind: text().notNull().default('bulk'),
  status: text({ enum: ['pending', 'done', 'failed'] })
    .notNull()
    .default('pending'),
  attempts: integer().notNull().default(0),
  lockedUntil: timestamp({ withTimezone: true }),
  lastError: text(),
  waitingSince: timestamp({ withTimezone: true }),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

const table: ClaimedTable<typeof items> = {
  table: items,
  id: items.id,
  account: items.userId,
  createdAt: items.createdAt,
  pending: sql`${items.status} = 'pending'`,
  stranded: sql`${items.createdAt} < now() - interval '1 minute'`,
  lockedUntil: items.lockedUntil,
  attempts: items.attempts,
  gaveUp: (reason) => ({ status: 'failed', lastError: reason }),
  retrying: (reason) => ({ lastError: reason }),
};
// The same table as webhook deliveries see it: at most 2 of an account and 1 of an endpoint in flight, alerts first.
const fair: FairTable<typeof items> = {
  ...table,
  lockedUntil: items.lockedUntil,
  waitingSince: items.waitingSince,
  precedence: sql`(${items.kind} <> 'alert')`,
  wakeable: sql`true`,
};
const limits: InFlightLimit[] = [
  { key: items.userId, max: 2 },
  { key: items.endpointId, max: 1 },
];
const policy: RetryPolicy = { maxAttempts: 3, backoffSeconds: exponentialBackoff(60, 2) };

let database: Database;
beforeAll(async () => {
  database = await openTestDatabase();
  await database.db.execute(sql`
    CREATE TABLE durable_test_items (
      id serial PRIMARY KEY, user_id integer NOT NULL, endpoint_id integer NOT NULL DEFAULT 0,
      kind text NOT NULL DEFAULT 'bulk', status text NOT NULL DEFAULT 'pending',
      attempts integer NOT NULL DEFAULT 0, locked_until timestamptz, last_error text, waiting_since timestamptz,
      created_at timestamptz NOT NULL DEFAULT now())`);
});
afterAll(async () => {
  await database?.close();
});
beforeEach(async () => {
  await database.db.execute(sql`TRUNCATE durable_test_items`);
});

async function add(userId: number, minutesAgo = 5, more: { endpointId?: number; kind?: string } = {}): Promise<number> {
  const [row] = await database.db
    .insert(items)
    .values({ userId, ...more, createdAt: sql`now() - make_interval(mins => ${minutesAgo})` })
    .returning();
  return row!.id;
}

async function row(id: number) {
  const [found] = await database.db.select().from(items).where(eq(items.id, id));
  return found!;
}

describe('durable delivery', () => {
  it('lets one of two workers claim an item, counting the attempt, and frees it when the lease runs out', async () => {
    const id = await add(1);
    const [a, b] = await Promise.all([claimItem(database.db, table, id, 60), claimItem(database.db, table, id, 60)]);
    expect([a, b].filter(Boolean)).toHaveLength(1);
    expect((a ?? b)!.attempts).toBe(1);
    expect(await claimItem(database.db, table, id, 60)).toBeUndefined();
    // The worker died: its lease ends, and the next claim takes the item (the second attempt).
    await database.db
      .update(items)
      .set({ lockedUntil: sql`now() - interval '1 second'` })
      .where(eq(items.id, id));
    expect((await claimItem(database.db, table, id, 60))?.attempts).toBe(2);
  });

  it('waits out the backoff after a failed attempt and gives up after the last, recording why', async () => {
    const id = await add(1);
    const first = (await claimItem(database.db, table, id, 60))!;
    expect(await failAttempt(database.db, table, policy, first, 'HTTP 503')).toBe('retrying');
    const waiting = await row(id);
    expect(waiting).toMatchObject({ status: 'pending', lastError: 'HTTP 503' });
    const waitSeconds = (waiting.lockedUntil!.getTime() - Date.now()) / 1000;
    expect(waitSeconds).toBeGreaterThan(50);
    expect(waitSeconds).toBeLessThanOrEqual(60);
    // Not claimable, nor stranded, before its retry is due.
    expect(await claimItem(database.db, table, id, 60)).toBeUndefined();
    expect(await findStranded(database.db, table, { limit: 10, perAccount: 10 })).toEqual([]);

    await database.db.update(items).set({ lockedUntil: null, attempts: 3 }).where(eq(items.id, id));
    expect(await findStranded(database.db, table, { limit: 10, perAccount: 10 })).toEqual([id]);
    const last = (await claimItem(database.db, table, id, 60))!;
    expect(await failAttempt(database.db, table, policy, last, 'HTTP 503 again')).toBe('failed');
    expect(await row(id)).toMatchObject({ status: 'failed', lastError: 'HTTP 503 again', lockedUntil: null });
    expect(await claimItem(database.db, table, id, 60)).toBeUndefined();
  });

  it('gives up at once on a permanent failure', async () => {
    const id = await add(1);
    const claimed = (await claimItem(database.db, table, id, 60))!;
    expect(await failAttempt(database.db, table, policy, claimed, 'Invalid number', true)).toBe('failed');
    expect(await row(id)).toMatchObject({ status: 'failed', attempts: 1, lastError: 'Invalid number' });
  });

  it('counts attempts and backoff by the policy', () => {
    expect([1, 2, 3].map(policy.backoffSeconds)).toEqual([60, 120, 240]);
    expect(nextRetry(policy, 2)).toBe(120);
    expect(nextRetry(policy, 3)).toBeNull();
    expect(attemptAllowed(policy, 3)).toBe(true);
    expect(attemptAllowed(policy, 4)).toBe(false);
  });

  it('sweeps stranded items oldest first, at most perAccount of one account a round', async () => {
    const flood = [];
    for (let i = 0; i < 5; i++) flood.push(await add(1, 30 - i)); // account 1: five old items
    const other = await add(2, 10); // account 2: one newer item
    const fresh = await add(3, 0); // not stranded yet: its job may still be on its way
    const held = await add(3, 20);
    await claimItem(database.db, table, held, 60);

    const round = await findStranded(database.db, table, { limit: 10, perAccount: 2 });
    expect(round).toEqual([flood[0], flood[1], other]);
    expect(round).not.toContain(fresh);
    expect(await findStranded(database.db, table, { limit: 2, perAccount: 2 })).toEqual([flood[0], flood[1]]);
  });

  it('starts an attempt only while its account and endpoint have room, and puts the others back to wait without counting', async () => {
    const first = await add(1, 5, { endpointId: 10 });
    const sameEndpoint = await add(1, 4, { endpointId: 10 });
    const otherEndpoint = await add(1, 3, { endpointId: 11 });
    const overAccount = await add(1, 2, { endpointId: 12, kind: 'alert' });
    const otherAccount = await add(2, 1, { endpointId: 20 });

    expect(await claimWithinLimits(database.db, fair, first, 60, limits)).toMatchObject({ id: first });
    expect(await claimWithinLimits(database.db, fair, sameEndpoint, 60, limits)).toBe('waiting');
    expect(await claimWithinLimits(database.db, fair, otherEndpoint, 60, limits)).toMatchObject({ id: otherEndpoint });
    expect(await claimWithinLimits(database.db, fair, overAccount, 60, limits)).toBe('waiting');
    // The account is full; another account's item starts at once.
    expect(await claimWithinLimits(database.db, fair, otherAccount, 60, limits)).toMatchObject({ id: otherAccount });
    expect(await row(sameEndpoint)).toMatchObject({ attempts: 0, lockedUntil: null, waitingSince: expect.any(Date) });

    // A finished attempt frees one slot of the account: the waiting alert goes first, though it is younger.
    expect(await releaseItem(database.db, fair, first, limits)).toEqual([overAccount]);
    expect(await row(overAccount)).toMatchObject({ waitingSince: null });
    expect(await claimWithinLimits(database.db, fair, overAccount, 60, limits)).toMatchObject({ id: overAccount });
    expect(await releaseItem(database.db, fair, otherEndpoint, limits)).toEqual([sameEndpoint]);
  });

  it('wakes waiting alerts first, then the oldest, in the order they are to be queued', async () => {
    const running = await add(1, 9, { endpointId: 40 });
    const oldest = await add(1, 8, { endpointId: 41 });
    const older = await add(1, 7, { endpointId: 42 });
    const alert = await add(1, 1, { endpointId: 43, kind: 'alert' });
    await claimWithinLimits(database.db, fair, running, 60, [{ key: items.userId, max: 1 }]);
    for (const id of [oldest, older, alert])
      expect(await claimWithinLimits(database.db, fair, id, 60, [{ key: items.userId, max: 1 }])).toBe('waiting');
    expect(await releaseItem(database.db, fair, running, [{ key: items.userId, max: 3 }])).toEqual([
      alert,
      oldest,
      older,
    ]);
  });

  it('lets no more than the limit start when many claims of one account race', async () => {
    const ids = [];
    for (let i = 0; i < 8; i++) ids.push(await add(1, 5, { endpointId: 30 + i }));
    const claims = await Promise.all(ids.map((id) => claimWithinLimits(database.db, fair, id, 60, limits)));
    expect(claims.filter((c) => typeof c === 'object')).toHaveLength(2);
    expect(claims.filter((c) => c === 'waiting')).toHaveLength(6);
  });
});
