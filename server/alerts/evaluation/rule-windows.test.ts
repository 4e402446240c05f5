import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  alertRules,
  alerts,
  deliveryEvents,
  domains,
  inboxTestReports,
  inboxTests,
} from '../../platform/db/schema/index';
import { startDnsServer, type TestDnsServer } from '../../test/dns-server';
import { createTestApp, signUp, type TestApp } from '../../test/test-app';
import { evaluateAlerts } from './evaluate-alerts';

/*
 * Alert rules judged on their own sliding window, ending when the evaluation runs, from the
 * events' own times, and on their own domain's events (issue 41).
 */

let dns: TestDnsServer;
let t: TestApp;
beforeAll(async () => {
  // The recipients' domains of the Postfix scenario, with their providers' MX hosts.
  dns = await startDnsServer({
    'gmail.com': { MX: [{ exchange: 'gmail-smtp-in.l.google.com', priority: 5 }] },
    'example.org': { MX: [{ exchange: 'mx.example.org', priority: 10 }] },
  });
  t = await createTestApp({ env: { DNS_SERVERS: dns.address } });
});
afterAll(async () => {
  await t?.close();
  await dns?.close();
});

const NOW = new Date('2026-06-15T12:00:00Z');
const db = () => t.database.db;
const evaluate = (userId: number, now = NOW) => evaluateAlerts({ db: db(), jobs: t.jobs }, userId, { now });
const WINDOWS = { '10m': 600_000, '1h': 3_600_000, '6h': 21_600_000, '24h': 86_400_000, '7d': 604_800_000 } as const;
type RuleWindow = keyof typeof WINDOWS;
/** Just inside a window's start, and just before it. */
const inside = (window: RuleWindow, now = NOW) => new Date(now.getTime() - WINDOWS[window] + 30_000);
const outside = (window: RuleWindow, now = NOW) => new Date(now.getTime() - WINDOWS[window] - 30_000);

async function newUser(...owned: string[]) {
  const userId = (await signUp(t.app)).user.id;
  for (const domain of owned)
    await db()
      .insert(domains)
      .values({ userId, domain, verificationToken: `tok-${domain}-${userId}` });
  return userId;
}

let messageCounter = 0;
/** `counts` events of each type at `at`, sent from `domain` (an MTA's events as they are stored). */
async function events(
  userId: number,
  at: Date,
  counts: { delivered?: number; bounced?: number; complaint?: number },
  domain: string | null = 'brand.test',
) {
  const rows = Object.entries(counts).flatMap(([eventType, n]) =>
    Array.from({ length: n }, () => {
      const id = ++messageCounter;
      return {
        userId,
        source: 'postfix',
        messageId: `q${id}`,
        recipient: `r${id}@example.org`,
        eventType: eventType as 'delivered' | 'bounced' | 'complaint',
        bounceClass: eventType === 'bounced' ? ('hard' as const) : null,
        domain,
        recipientDomain: 'example.org',
        occurredAt: at,
      };
    }),
  );
  await db().insert(deliveryEvents).values(rows);
}

async function rule(
  userId: number,
  type: string,
  timeWindow: RuleWindow,
  warning: number,
  critical: number,
  domain: string | null = null,
) {
  const [row] = await db()
    .insert(alertRules)
    .values({
      userId,
      name: `${type} ${timeWindow}`,
      type,
      domain,
      warningThreshold: warning,
      criticalThreshold: critical,
      notifications: { email: true, webhook: false, slack: false, sms: false },
      timeWindow,
    })
    .returning();
  return row.id;
}

const openRuleAlerts = (userId: number) =>
  db()
    .select()
    .from(alerts)
    .where(and(eq(alerts.userId, userId), isNull(alerts.resolvedAt)))
    .then((rows) => rows.filter((a) => a.conditionKey?.startsWith('rule:')));

let testCounter = 0;
async function inboxTest(userId: number, domain: string, inbox: number, seeds: number, completedAt: Date) {
  const [test] = await db()
    .insert(inboxTests)
    .values({
      userId,
      status: 'completed',
      testEmailAddress: `win-${++testCounter}-${userId}@inbox.test`,
      totalSeeds: seeds,
      inboxCount: inbox,
      completedAt,
    })
    .returning();
  await db()
    .insert(inboxTestReports)
    .values({
      testId: test.id,
      score: 8,
      report: { authentication: { dmarc: { domain }, headerFrom: [`news@${domain}`] } },
    });
}

/**
 * Each rule type the form offers, with figures placed just inside the window (what the rule must
 * see) and just before it (what would change the figure if it were counted): the value of the alert
 * is the inside figure exactly.
 */
const CASES: {
  type: string;
  warning: number;
  critical: number;
  place: (userId: number, w: RuleWindow) => Promise<void>;
  value: number;
}[] = [
  {
    type: 'bounceRate',
    warning: 5,
    critical: 10,
    place: async (userId, w) => {
      await events(userId, inside(w), { delivered: 80, bounced: 20 });
      await events(userId, outside(w), { delivered: 1000 });
    },
    value: 20,
  },
  {
    type: 'deliveryRate',
    warning: 95,
    critical: 80,
    place: async (userId, w) => {
      await events(userId, inside(w), { delivered: 70, bounced: 30 });
      await events(userId, outside(w), { delivered: 1000 });
    },
    value: 70,
  },
  {
    type: 'complaintRate',
    warning: 0.1,
    critical: 0.3,
    place: async (userId, w) => {
      await events(userId, inside(w), { delivered: 200, complaint: 1 });
      await events(userId, outside(w), { delivered: 1000 });
    },
    value: 0.5,
  },
  {
    type: 'volumeIncrease',
    warning: 100,
    critical: 200,
    place: async (userId, w) => {
      // The window before this one (of the same length) held 100; one more length back, 1,000 more.
      await events(userId, inside(w), { delivered: 400 });
      await events(userId, outside(w), { delivered: 100 });
      await events(userId, new Date(outside(w).getTime() - WINDOWS[w]), { delivered: 1000 });
    },
    value: 300,
  },
  {
    type: 'volumeDecrease',
    warning: 30,
    critical: 50,
    place: async (userId, w) => {
      await events(userId, inside(w), { delivered: 100 });
      await events(userId, outside(w), { delivered: 400 });
    },
    value: 75,
  },
  {
    type: 'inboxRate',
    warning: 90,
    critical: 70,
    place: async (userId, w) => {
      await inboxTest(userId, 'brand.test', 6, 10, inside(w));
      await inboxTest(userId, 'brand.test', 10, 10, outside(w));
    },
    value: 60,
  },
];

describe('alert rules judged on their own window', () => {
  for (const window of Object.keys(WINDOWS) as RuleWindow[]) {
    for (const c of CASES) {
      it(`${c.type} over ${window}: counts what happened just inside the window and nothing just before it`, async () => {
        const userId = await newUser('brand.test');
        await c.place(userId, window);
        const id = await rule(userId, c.type, window, c.warning, c.critical);
        await evaluate(userId);
        const [alert] = await openRuleAlerts(userId);
        expect(alert, `${c.type} ${window}`).toBeDefined();
        expect(alert.conditionKey).toMatch(new RegExp(`^rule:${id}(:|$)`));
        expect(alert.severity).toBe('critical');
        expect(alert.metadata).toMatchObject({ value: c.value, window });
      });
    }

    it(`sender score over ${window}: the latest score, which no window changes`, async () => {
      const userId = await newUser('brand.test');
      await db().update(domains).set({ reputationScore: 40 }).where(eq(domains.userId, userId));
      await rule(userId, 'senderScore', window, 80, 60, 'brand.test');
      await evaluate(userId);
      expect((await openRuleAlerts(userId)).map((a) => [a.severity, a.metadata?.value])).toEqual([['critical', 40]]);
    });

    it(`bounce rate over ${window}: the same figures just before the window raise nothing`, async () => {
      const userId = await newUser('brand.test');
      await events(userId, outside(window), { delivered: 80, bounced: 20 });
      await events(userId, inside(window), { delivered: 100 });
      await rule(userId, 'bounceRate', window, 5, 10);
      await evaluate(userId);
      expect(await openRuleAlerts(userId)).toEqual([]);
    });
  }

  it('says in the alert which window and which events it counted', async () => {
    const userId = await newUser('brand.test');
    await events(userId, inside('1h'), { delivered: 80, bounced: 20 });
    await rule(userId, 'bounceRate', '1h', 5, 10, 'brand.test');
    await evaluate(userId);
    const [alert] = await openRuleAlerts(userId);
    expect(alert.message).toBe(
      'Rule "bounceRate 1h": bounce rate (20 of 100 messages sent from brand.test bounced in the last hour, from your MTA and ESP events) is 20%, above its critical threshold of 10%. Open the alert\'s data to see what changed, then fix the cause or adjust the rule.',
    );
    expect(alert.metadata).toMatchObject({
      sent: 100,
      bounced: 20,
      domain: 'brand.test',
      period: 'the last hour',
      basis: 'MTA and ESP events',
    });
  });
});

describe('alert rules for one domain', () => {
  it("fire on that domain's events (and its subdomains'), not on another domain's or the account's", async () => {
    const userId = await newUser('brand.test', 'calm.test');
    await events(userId, inside('1h'), { delivered: 60, bounced: 20 }, 'brand.test');
    await events(userId, inside('1h'), { delivered: 20 }, 'bounce.brand.test');
    await events(userId, inside('1h'), { delivered: 2000 }, 'calm.test');
    const brand = await rule(userId, 'bounceRate', '1h', 5, 10, 'brand.test');
    const calm = await rule(userId, 'bounceRate', '1h', 5, 10, 'calm.test');
    const account = await rule(userId, 'bounceRate', '1h', 5, 10);
    await evaluate(userId);
    const open = await openRuleAlerts(userId);
    expect(open.map((a) => [a.conditionKey, a.domain, a.severity, a.metadata?.value])).toEqual([
      [`rule:${brand}`, 'brand.test', 'critical', 20],
    ]);
    expect(open.some((a) => a.conditionKey === `rule:${calm}` || a.conditionKey === `rule:${account}`)).toBe(false);
  });

  it('does not count daily statistics imported for the whole account', async () => {
    const userId = await newUser('brand.test');
    await events(userId, inside('24h'), { delivered: 100 }, 'brand.test');
    // An ESP's synced day: 50% bounces, for every domain of the account together.
    await t.database.pool.query(
      `insert into email_metrics (user_id, provider, date, emails_sent, delivered, bounced) values ($1, 'sendgrid', '2026-06-15', 1000, 500, 500)`,
      [userId],
    );
    await rule(userId, 'bounceRate', '24h', 5, 10, 'brand.test');
    await evaluate(userId);
    expect(await openRuleAlerts(userId)).toEqual([]);
  });
});

describe('daily statistics', () => {
  it('judge an account-wide 24-hour rule when no events came, and say so; an hour rule is not judged on them', async () => {
    const userId = await newUser('brand.test');
    await t.database.pool.query(
      `insert into email_metrics (user_id, provider, date, emails_sent, delivered, bounced) values ($1, 'sendgrid', '2026-06-15', 1000, 800, 200)`,
      [userId],
    );
    const day = await rule(userId, 'bounceRate', '24h', 5, 10);
    await rule(userId, 'bounceRate', '1h', 5, 10);
    await evaluate(userId);
    const open = await openRuleAlerts(userId);
    expect(open.map((a) => a.conditionKey)).toEqual([`rule:${day}`]);
    expect(open[0].message).toContain(
      '200 of 1,000 messages bounced on 2026-06-15 (UTC), from your daily figures, which include the statistics imported per day from your ESPs',
    );
  });
});

describe("the issue's scenario", () => {
  it('a domain bouncing 17.7% in the last hour, posted by Postfix, fires "critical 5% over 1 hour" for that domain, and resolves when it recovers', async () => {
    const { client, user } = await signUp(t.app);
    await db()
      .insert(domains)
      .values({ userId: user.id, domain: 'brand.example', verificationToken: `tok-brand-${user.id}` });
    await db()
      .insert(domains)
      .values({ userId: user.id, domain: 'calm.example', verificationToken: `tok-calm-${user.id}` });
    const token = (await client.post('/api/webhook-tokens/generate')).json().token as string;
    const now = new Date();
    // Postfix's own log lines (postfix/qmgr and postfix/smtp, as in its documentation's examples), 30 minutes ago.
    const at = new Date(now.getTime() - 30 * 60_000);
    const time = `${at.toLocaleString('en-US', { month: 'short', timeZone: 'UTC' })} ${String(at.getUTCDate()).padStart(2, ' ')} ${at.toISOString().slice(11, 19)}`;
    const batch = (queueId: string, sender: string, delivered: number, bounced: number) => [
      `${time} mx1 postfix/qmgr[1999]: ${queueId}: from=<news@${sender}>, size=4211, nrcpt=${delivered + bounced} (queue active)`,
      ...Array.from(
        { length: delivered },
        (_, i) =>
          `${time} mx1 postfix/smtp[2120]: ${queueId}: to=<reader${i}@gmail.com>, relay=gmail-smtp-in.l.google.com[142.250.102.27]:25, delay=1.2, delays=0.1/0.01/0.5/0.59, dsn=2.0.0, status=sent (250 2.0.0 OK  1705314225 d2e1a72fcca58-7d5f5b2c1b0si1234567pfb.12 - gsmtp)`,
      ),
      ...Array.from(
        { length: bounced },
        (_, i) =>
          `${time} mx1 postfix/smtp[2121]: ${queueId}: to=<gone${i}@example.org>, relay=mx.example.org[192.0.2.25]:25, delay=2.1, delays=0.1/0.01/1.5/0.49, dsn=5.1.1, status=bounced (host mx.example.org[192.0.2.25] said: 550 5.1.1 <gone${i}@example.org>: Recipient address rejected: User unknown in virtual mailbox table (in reply to RCPT TO command))`,
      ),
    ];
    const post = (lines: string[]) =>
      t.app.inject({
        method: 'POST',
        url: '/api/webhooks/postfix',
        payload: lines.join('\n'),
        headers: { 'content-type': 'text/plain', 'x-webhook-token': token },
      });
    // brand.example: 20 of 113 bounced (17.7%); the account as a whole: 20 of 1,013 (2%).
    expect((await post(batch('4TfK2Q1xBR01', 'brand.example', 93, 20))).json()).toMatchObject({ accepted: 113 });
    expect((await post(batch('4TfK2Q1xCA01', 'calm.example', 900, 0))).json()).toMatchObject({ accepted: 900 });
    const created = await client.post('/api/alerts/rules', {
      name: 'Brand bounces',
      type: 'bounceRate',
      domain: 'brand.example',
      threshold: { warning: 2, critical: 5 },
      timeWindow: '1h',
    });
    expect(created.statusCode, created.body).toBe(200);

    await evaluate(user.id, now);
    const [alert] = await openRuleAlerts(user.id);
    expect(alert).toMatchObject({
      type: 'bounce',
      severity: 'critical',
      domain: 'brand.example',
      title: 'Brand bounces: Bounce rate 17.7%',
    });
    const shown = (await client.get('/api/alerts')).json() as { title: string; resolvedAt: string | null }[];
    expect(shown.find((a) => a.title === 'Brand bounces: Bounce rate 17.7%')?.resolvedAt).toBeNull();

    // 1,000 messages delivered 70 minutes later: the hour then holds no bounce, and the alert resolves.
    const later = new Date(now.getTime() + 70 * 60_000);
    await events(user.id, new Date(later.getTime() - 60_000), { delivered: 1000 }, 'brand.example');
    expect(await evaluate(user.id, later)).toMatchObject({ resolved: 1 });
    const [resolved] = await db().select().from(alerts).where(eq(alerts.id, alert.id));
    expect(resolved.resolvedAt).not.toBeNull();
    expect(resolved.history.at(-1)!.message).toBe(
      "Recovered: bounce rate (0 of 1,000 messages sent from brand.example bounced in the last hour, from your MTA and ESP events) is 0%, not above the rule's 2%.",
    );
  });
});
