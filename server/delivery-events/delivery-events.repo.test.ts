import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteAccount } from '../accounts/delete-account.service';
import { deliveryEvents } from '../platform/db/schema/index';
import { createTestApp, signUp, type TestApp } from '../test/test-app';
import { insertNewEvents, type NewEvent } from './delivery-events.repo';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

const event = (n: number): NewEvent => ({
  messageId: `Q${n}`,
  recipient: `user${n}@gmail.com`,
  eventType: 'delivered',
  bounceClass: null,
  enhancedStatus: '2.0.0',
  smtpResponse: '250 2.0.0 OK',
  domain: 'brand.example',
  recipientDomain: 'gmail.com',
  mailboxProvider: 'gmail',
  sendingIp: '203.0.113.10',
  occurredAt: new Date(),
});

/** Another connection of the database waits for a row lock (the deletion's lock of the user row). */
async function deletionWaitsOnALock(): Promise<boolean> {
  const result = (await t.database.db.execute(
    sql`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
  )) as unknown as { rows: { n: number }[] };
  return result.rows[0].n > 0;
}

const storedFor = async (userId: number) => (await t.database.db.select().from(deliveryEvents).where(eq(deliveryEvents.userId, userId))).length;

// delivery_events has no foreign key to users (ADR 029): the writer guards the owner itself.
describe('storing delivery events without a foreign key', () => {
  it('stores nothing for a user that does not exist, or no longer does', async () => {
    expect(await insertNewEvents(t.database.db, 2_000_000_000, 'postfix', [event(1)])).toEqual([]);
    expect(await storedFor(2_000_000_000)).toBe(0);

    const { user } = await signUp(t.app);
    await deleteAccount(t.database.db, user.id);
    expect(await insertNewEvents(t.database.db, user.id, 'postfix', [event(2)])).toEqual([]);
    expect(await storedFor(user.id)).toBe(0);
  });

  it('makes an account deletion wait for a batch being stored, then removes its events too', async () => {
    const { user } = await signUp(t.app);
    let deleted: Promise<void> | undefined;
    await t.database.db.transaction(async (tx) => {
      expect(await insertNewEvents(tx, user.id, 'postfix', [event(3), event(4)])).toHaveLength(2);
      // The batch holds the user row: the deletion, in another connection, waits on it until this commits.
      deleted = deleteAccount(t.database.db, user.id);
      let finished = false;
      void deleted.then(() => (finished = true));
      while (!(await deletionWaitsOnALock())) {
        expect(finished).toBe(false);
        await new Promise((r) => setTimeout(r, 20));
      }
    });
    await deleted;
    expect(await storedFor(user.id)).toBe(0);
  });
});
