import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteAccount } from '../accounts/delete-account.service';
import { deliveryEvents, emailMetrics } from '../platform/db/schema/index';
import { createTestApp, signUp, type TestApp } from '../test/test-app';
import { storeNewEvents, type NewEvent } from './delivery-events.repo';

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
  const result = await t.database.db.execute<{ n: number }>(
    sql`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
  );
  return result.rows[0].n > 0;
}

const storedFor = async (userId: number) =>
  (await t.database.db.select().from(deliveryEvents).where(eq(deliveryEvents.userId, userId))).length;

// delivery_events has no foreign key to users (ADR 029): the writer guards the owner itself.
describe('storing delivery events without a foreign key', () => {
  it('stores nothing for a user that does not exist, or no longer does', async () => {
    expect(await storeNewEvents(t.database.db, 2_000_000_000, 'postfix', [event(1)], { returnKeys: false })).toEqual({
      count: 0,
      keys: [],
    });
    expect(await storedFor(2_000_000_000)).toBe(0);

    const { user } = await signUp(t.app);
    await deleteAccount(t.database.db, user.id);
    expect(await storeNewEvents(t.database.db, user.id, 'postfix', [event(2)], { returnKeys: true })).toEqual({
      count: 0,
      keys: [],
    });
    expect(await storedFor(user.id)).toBe(0);
  });

  it('makes an account deletion wait for a batch being stored, then removes its events too', async () => {
    const { user } = await signUp(t.app);
    let deleted: Promise<void> | undefined;
    await t.database.db.transaction(async (tx) => {
      expect(
        (await storeNewEvents(tx, user.id, 'postfix', [event(3), event(4)], { returnKeys: true })).keys,
      ).toHaveLength(2);
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

describe('the day figures a batch adds', () => {
  it('counts only the new events, per UTC day, mailbox provider and sending IP, each kind where it belongs', async () => {
    const { user } = await signUp(t.app);
    const at = (iso: string) => new Date(iso);
    const batch: NewEvent[] = [
      { ...event(10), occurredAt: at('2026-03-01T23:59:59Z') },
      { ...event(11), eventType: 'bounced', bounceClass: 'hard', occurredAt: at('2026-03-01T10:00:00Z') },
      { ...event(12), eventType: 'bounced', bounceClass: 'soft', occurredAt: at('2026-03-01T11:00:00Z') },
      { ...event(13), eventType: 'deferred', occurredAt: at('2026-03-01T12:00:00Z') },
      { ...event(10), eventType: 'complaint', occurredAt: at('2026-03-02T00:00:00Z') },
      { ...event(14), sendingIp: '203.0.113.11', occurredAt: at('2026-03-01T13:00:00Z') },
    ];
    expect((await storeNewEvents(t.database.db, user.id, 'postfix', batch, { returnKeys: false })).count).toBe(6);
    // Sent again with one new event: only that one is counted.
    const again = await storeNewEvents(
      t.database.db,
      user.id,
      'postfix',
      [...batch, { ...event(15), occurredAt: at('2026-03-01T14:00:00Z') }],
      {
        returnKeys: true,
      },
    );
    expect(again.keys).toEqual([{ messageId: 'Q15', recipient: 'user15@gmail.com', eventType: 'delivered' }]);

    const rows = await t.database.db
      .select()
      .from(emailMetrics)
      .where(eq(emailMetrics.userId, user.id))
      .orderBy(emailMetrics.date, emailMetrics.sendingIp);
    expect(
      rows.map((r) => [
        r.date,
        r.sendingIp,
        r.emailsSent,
        r.delivered,
        r.bounced,
        r.hardBounces,
        r.softBounces,
        r.deferred,
        r.complaints,
      ]),
    ).toEqual([
      ['2026-03-01', '203.0.113.10', 4, 2, 2, 1, 1, 1, 0],
      ['2026-03-01', '203.0.113.11', 1, 1, 0, 0, 0, 0, 0],
      ['2026-03-02', '203.0.113.10', 0, 0, 0, 0, 0, 0, 1],
    ]);
    expect(rows.every((r) => r.provider === 'postfix' && r.mailboxProvider === 'gmail')).toBe(true);
  });
});
