import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeNewEvents, type NewEvent } from '../delivery-events/delivery-events.repo';
import { queryPlans } from '../test/query-plans';
import { createTestApp, signUp, type TestApp } from '../test/test-app';
import {
  listDmarcDays,
  listDomainEventDays,
  listNewFailingSources,
  listSendingIps,
  type Range,
} from './timeline-figures';

/*
 * The heaviest reads of a domain's timeline (issue 39: a year of a thousand domains): each is bounded by the index
 * it uses, by the user, the domain and the time range, never reading every domain's rows of the range. The plans
 * are of the queries as these functions build them (test/query-plans.ts).
 */

let t: TestApp;
beforeAll(async () => (t = await createTestApp()));
afterAll(() => t?.close());

const DAY = 86_400_000;
const now = new Date();
const range: Range = { since: new Date(now.getTime() - 120 * DAY), until: now };
const plansOf = (work: Parameters<typeof queryPlans>[1]) => queryPlans(t.database, work);

/** The Index Cond lines of a plan, and the names of the tables it reads without an index. */
function scans(plan: string) {
  return {
    conditions: plan.split('\n').filter((line) => line.includes('Index Cond')),
    unindexed: [...plan.matchAll(/Seq Scan on (\w+)/g)].map((m) => m[1]),
  };
}

describe("a domain's delivery events", () => {
  let userId: number;
  const at = new Date(now.getTime() - DAY);
  const delivered = (n: number, domain: string): NewEvent => ({
    messageId: `<${n}@${domain}>`,
    recipient: `user${n}@example.net`,
    eventType: 'delivered',
    bounceClass: null,
    enhancedStatus: null,
    smtpResponse: null,
    domain,
    recipientDomain: 'example.net',
    mailboxProvider: 'other',
    sendingIp: '192.0.2.1',
    occurredAt: at,
  });
  const names = ['brand.com', 'bounce.brand.com', 'a.b.brand.com', 'xbrand.com', 'brand.com.evil', 'x-brand.com'];

  beforeAll(async () => {
    ({
      user: { id: userId },
    } = await signUp(t.app));
    // Beside the names above, the mail of 200 other domains, and the statistics of it: the planner weighs the
    // sender index as it would for an account of many domains, not as for an empty table.
    const others = Array.from({ length: 2000 }, (_, n) => delivered(n, `domain-${n % 200}.example`));
    const events = [...names.map((name, n) => delivered(10_000 + n, name)), ...others];
    await storeNewEvents(t.database.db, userId, 'postfix', events, { returnKeys: false });
    await t.database.pool.query('analyze delivery_events');
  });

  it("count the domain's own mail and its subdomains', not a name that only ends the same", async () => {
    const days = await listDomainEventDays(t.database.db, userId, 'brand.com', range);
    expect(days.map((d) => d.delivered)).toEqual([3]);
  });

  it('are read by the sender index, bounded by the user, the domain and the time', async () => {
    const [plan] = await plansOf((ex) => listDomainEventDays(ex, userId, 'brand.com', range));
    expect(plan).toContain('delivery_events_user_sender_time_idx');
    const { conditions, unindexed } = scans(plan!);
    expect(unindexed).toEqual([]);
    const ofTheDomain = conditions.filter((c) => c.includes('reverse(domain)'));
    // The domain itself, bounded by the time; its subdomains, by the name.
    expect(ofTheDomain).toHaveLength(2);
    expect(ofTheDomain[0]).toMatch(/user_id = .*reverse\(domain\).* = 'moc\.dnarb'.*occurred_at >= /);
    expect(ofTheDomain[1]).toMatch(/user_id = .*reverse\(domain\).* > 'moc\.dnarb\.'.* < 'moc\.dnarb\/'/);
  });
});

describe("a domain's DMARC days", () => {
  it('are read through an index bounded by the user, the domain and the days of the range', async () => {
    const [plan] = await plansOf((ex) => listDmarcDays(ex, 1, 'brand.com', range));
    const { conditions, unindexed } = scans(plan!);
    expect(unindexed).toEqual([]);
    expect(conditions).toHaveLength(1);
    // Through the key (user, day, domain) or the index on (user, domain, day), as the server's planner prefers: the
    // index bounds the user and the domain; the days bound it too, or filter what it found (PostgreSQL 15 on few rows).
    for (const bound of [/user_id = /, /domain = 'brand\.com'/]) expect(conditions[0]).toMatch(bound);
    expect(plan).toMatch(/day = ANY /);
  });

  it('of new sources and of sending IPs name the domain in every read of the table', async () => {
    const plans = await plansOf(async (ex) => {
      await listNewFailingSources(ex, 1, 'brand.com', range);
      await listSendingIps(ex, 1, 'brand.com', range);
    });
    expect(plans).toHaveLength(2);
    for (const plan of plans) {
      const { conditions, unindexed } = scans(plan);
      expect(unindexed).toEqual([]);
      // Every index read of the user's rows is bounded by the domain too (whichever index the planner takes), but the
      // look-back's start: the user's oldest stored day, a min() the planner reads as the first entry of the user's.
      const oldestDay = /Index Cond: \(\(?user_id = \d+\)( AND \(day IS NOT NULL\)\))?$/;
      const ofTheUser = conditions.filter((c) => c.includes('user_id =') && !oldestDay.test(c));
      expect(ofTheUser.length).toBeGreaterThan(0);
      for (const condition of ofTheUser) expect(condition).toMatch(/domain = /);
    }
  });
});
