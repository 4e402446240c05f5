import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alerts } from '../platform/db/schema/index';
import { createTestApp, signUp, type TestApp } from '../test/test-app';
import { openOrUpdateCondition, resolveCondition, type ConditionAlert } from './alert-conditions';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const condition = (
  userId: number,
  value: number,
  severity: ConditionAlert['severity'] = 'warning',
): ConditionAlert => ({
  userId,
  conditionKey: 'inbox:brand.test',
  type: 'deliverability_drop',
  severity,
  title: `Inbox placement for brand.test fell to ${value}%`,
  message: `The latest test reached the inbox at ${value}%.`,
  domain: 'brand.test',
  measure: 'Inbox placement for brand.test',
  unit: '%',
  metadata: { value, threshold: 90 },
});

const rowsOf = (userId: number) =>
  t.database.db.select().from(alerts).where(eq(alerts.userId, userId)).orderBy(alerts.id);

describe('a condition alert', () => {
  it('is raised once, rewritten only when its value or severity changes, told again when it escalates, and resolved in words', async () => {
    const { user } = await signUp(t.app);
    const db = t.database.db;
    expect(await openOrUpdateCondition(db, condition(user.id, 72))).toBe('raised');
    let [row] = await rowsOf(user.id);
    expect(row).toMatchObject({
      conditionKey: 'inbox:brand.test',
      severity: 'warning',
      notifiedAt: null,
      updatedAt: null,
      resolvedAt: null,
    });
    expect(row.history).toEqual([
      expect.objectContaining({ event: 'raised', message: 'The latest test reached the inbox at 72%.' }),
    ]);

    // The same value again writes nothing.
    expect(await openOrUpdateCondition(db, condition(user.id, 72))).toBe('unchanged');
    expect(await rowsOf(user.id)).toEqual([row]);

    // Delivery has told it; a new value updates it without telling it again.
    await db
      .update(alerts)
      .set({ notifiedAt: sql`now()` })
      .where(eq(alerts.id, row.id));
    expect(await openOrUpdateCondition(db, condition(user.id, 61))).toBe('updated');
    [row] = await rowsOf(user.id);
    expect(row.updatedAt).not.toBeNull();
    expect(row.notifiedAt).not.toBeNull();
    expect(row.metadata).toEqual({ value: 61, threshold: 90 });
    expect(row.history.at(-1)).toMatchObject({
      event: 'updated',
      message: 'Inbox placement for brand.test now 61% (was 72%).',
    });

    // Up to critical: an escalation, so notified_at is cleared for delivery.
    expect(await openOrUpdateCondition(db, condition(user.id, 40, 'critical'))).toBe('escalated');
    [row] = await rowsOf(user.id);
    expect(row).toMatchObject({
      severity: 'critical',
      notifiedAt: null,
      title: 'Inbox placement for brand.test fell to 40%',
    });
    expect(row.history.at(-1)?.message).toBe(
      'Inbox placement for brand.test now 40% (was 61%); escalated from warning to critical.',
    );

    // Back down to warning: updated, not told again.
    await db
      .update(alerts)
      .set({ notifiedAt: sql`now()` })
      .where(eq(alerts.id, row.id));
    expect(await openOrUpdateCondition(db, condition(user.id, 70))).toBe('updated');
    [row] = await rowsOf(user.id);
    expect(row.notifiedAt).not.toBeNull();
    expect(row.history.at(-1)?.message).toBe(
      'Inbox placement for brand.test now 70% (was 40%); lowered from critical to warning.',
    );

    expect(
      await resolveCondition(db, user.id, 'inbox:brand.test', 'Inbox placement for brand.test is 95% (threshold 90%).'),
    ).toBe(true);
    expect(await resolveCondition(db, user.id, 'inbox:brand.test', 'again')).toBe(false);
    [row] = await rowsOf(user.id);
    expect(row.resolvedAt).not.toBeNull();
    expect(row.history.at(-1)).toMatchObject({
      event: 'resolved',
      message: 'Recovered: Inbox placement for brand.test is 95% (threshold 90%).',
    });
    expect(row.history.map((h) => h.event)).toEqual(['raised', 'updated', 'updated', 'updated', 'resolved']);

    // The condition holding again is a new alert; the resolved one stays as it was.
    expect(await openOrUpdateCondition(db, condition(user.id, 72))).toBe('raised');
    const all = await rowsOf(user.id);
    expect(all).toHaveLength(2);
    expect(all[0]).toEqual(row);
  });

  it('raises one alert when two writers of the same condition meet', async () => {
    const { user } = await signUp(t.app);
    const write = (value: number) =>
      t.database.db.transaction((tx) => openOrUpdateCondition(tx, condition(user.id, value)));
    const outcomes = await Promise.all([write(72), write(72), write(72)]);
    expect(outcomes.sort()).toEqual(['raised', 'unchanged', 'unchanged']);
    const open = await t.database.db
      .select()
      .from(alerts)
      .where(and(eq(alerts.userId, user.id), eq(alerts.conditionKey, 'inbox:brand.test')));
    expect(open).toHaveLength(1);
  });
});
