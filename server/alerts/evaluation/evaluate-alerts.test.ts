import { addDays } from '@contracts/utc-day';
import { and, eq, isNull, sql } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../../platform/context';
import {
  alertRules,
  alertSettings,
  alerts,
  dmarcSourceDays,
  domains,
  emailMetrics,
  inboxTestReports,
  inboxTests,
  integrations,
  ipAddresses,
  postmasterStats,
} from '../../platform/db/schema/index';
import { setDailyTotals } from '../../delivery-events/delivery-events.repo';
import { createTestApp, signUp, type TestApp } from '../../test/test-app';
import { evaluateAlerts } from './evaluate-alerts';
import { evaluateAlertsRunner } from './evaluate-alerts.runner';
import { scheduleAlertEvaluationsRunner } from './schedule-alert-evaluations.runner';

let t: TestApp;
beforeAll(async () => {
  // No worker: queued jobs stay where the test can count them, and evaluations run when the test says.
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

/** A fixed clock: every date below is relative to it. */
const NOW = new Date('2026-06-15T12:00:00Z');
const TODAY = '2026-06-15';
const YESTERDAY = addDays(TODAY, -1);
const hoursAgo = (h: number) => new Date(NOW.getTime() - h * 3_600_000);

const evaluate = (userId: number) => evaluateAlerts({ db: t.database.db, jobs: t.jobs }, userId, { now: NOW });
const db = () => t.database.db;

const openAlerts = (userId: number) =>
  db()
    .select()
    .from(alerts)
    .where(and(eq(alerts.userId, userId), isNull(alerts.resolvedAt)))
    .orderBy(alerts.conditionKey);
const alertOf = async (userId: number, key: string) => {
  const rows = await db()
    .select()
    .from(alerts)
    .where(and(eq(alerts.userId, userId), eq(alerts.conditionKey, key)))
    .orderBy(alerts.id);
  return rows.at(-1);
};
const queued = async (name: string, userId: number) => {
  const { rows } = await t.database.pool.query<{ n: string }>(
    `select count(*) as n from pgboss.job where name = $1 and (data->>'userId')::int = $2`,
    [name, userId],
  );
  return Number(rows[0].n);
};
const clearQueue = (userId: number) =>
  t.database.pool.query(`delete from pgboss.job where (data->>'userId')::int = $1`, [userId]);
const newUser = async () => (await signUp(t.app)).user.id;

let testCounter = 0;
async function inboxTest(userId: number, domain: string | null, inbox: number, seeds: number, completedAt: Date) {
  const [test] = await db()
    .insert(inboxTests)
    .values({
      userId,
      status: 'completed',
      testEmailAddress: `eval-${++testCounter}-${userId}@inbox.test`,
      totalSeeds: seeds,
      inboxCount: inbox,
      completedAt,
    })
    .returning();
  const report = {
    authentication: { dmarc: domain ? { domain } : null, headerFrom: domain ? [`news@${domain}`] : [] },
  };
  await db().insert(inboxTestReports).values({ testId: test.id, score: 8, report });
  return test.id;
}

/** A provider's own figures of a day, written over what that day had, as POST /api/v1/metrics writes them. */
async function metrics(
  userId: number,
  date: string,
  figures: { sent: number; delivered: number; bounced?: number; complaints?: number },
  provider = 'sendgrid',
) {
  await setDailyTotals(db(), userId, provider, date, {
    emailsSent: figures.sent,
    delivered: figures.delivered,
    bounced: figures.bounced ?? 0,
    complaints: figures.complaints ?? 0,
    hardBounces: 0,
    softBounces: 0,
    deferred: 0,
    opens: 0,
    clicks: 0,
  });
}

async function rule(
  userId: number,
  values: {
    type: string;
    warning: number;
    critical: number;
    timeWindow?: string;
    domain?: string | null;
    name?: string;
  },
) {
  const [row] = await db()
    .insert(alertRules)
    .values({
      userId,
      name: values.name ?? `My ${values.type} rule`,
      type: values.type,
      domain: values.domain ?? null,
      warningThreshold: values.warning,
      criticalThreshold: values.critical,
      notifications: { email: true, webhook: false, slack: true, sms: false },
      timeWindow: values.timeWindow ?? '24h',
    })
    .returning();
  return row.id;
}

describe('evaluating alert conditions', () => {
  it('raises nothing and queues nothing for a user without data', async () => {
    const userId = await newUser();
    expect(await evaluate(userId)).toEqual({ raised: 0, escalated: 0, updated: 0, resolved: 0 });
    expect(await openAlerts(userId)).toEqual([]);
    expect(await queued('deliver-alerts', userId)).toBe(0);
  });

  it('inbox placement: the latest test of each From domain, raised, updated, escalated and resolved with its history', async () => {
    const userId = await newUser();
    await inboxTest(userId, 'brand.test', 18, 20, hoursAgo(40 * 24)); // older than 30 days: not counted
    await inboxTest(userId, 'brand.test', 13, 18, hoursAgo(5)); // 72.2%
    await inboxTest(userId, 'other.test', 19, 20, hoursAgo(4)); // 95%: fine
    await inboxTest(userId, null, 1, 4, hoursAgo(3)); // no From domain: the account's

    expect(await evaluate(userId)).toMatchObject({ raised: 2, resolved: 0 });
    const brand = await alertOf(userId, 'inbox:brand.test');
    expect(brand).toMatchObject({
      type: 'deliverability_drop',
      severity: 'warning',
      domain: 'brand.test',
      title: 'Inbox placement for brand.test fell to 72.2%',
    });
    expect(brand!.message).toBe(
      "The latest inbox test from brand.test reached the inbox at 13 of 18 seed mailboxes (72.2%, threshold 90%). Open the test's report to fix the authentication, content or blocklist issues it found, then run another test.",
    );
    expect(brand!.metadata).toMatchObject({ value: 72.2, threshold: 90, domain: 'brand.test', inbox: 13, seeds: 18 });
    expect(await alertOf(userId, 'inbox:account')).toMatchObject({ severity: 'critical', domain: null }); // 25%
    expect(await alertOf(userId, 'inbox:other.test')).toBeUndefined();
    expect(await queued('deliver-alerts', userId)).toBe(1);

    // The same data again writes nothing and tells nothing.
    const before = await openAlerts(userId);
    await clearQueue(userId);
    expect(await evaluate(userId)).toEqual({ raised: 0, escalated: 0, updated: 0, resolved: 0 });
    expect(await openAlerts(userId)).toEqual(before);
    expect(await queued('deliver-alerts', userId)).toBe(0);

    // A newer test at 61%: updated, not told again.
    await db()
      .update(alerts)
      .set({ notifiedAt: sql`now()` })
      .where(eq(alerts.userId, userId));
    await inboxTest(userId, 'brand.test', 11, 18, hoursAgo(2));
    expect(await evaluate(userId)).toMatchObject({ updated: 1, escalated: 0 });
    expect((await alertOf(userId, 'inbox:brand.test'))!.history.at(-1)).toMatchObject({
      event: 'updated',
      message: 'Inbox placement for brand.test now 61.1% (was 72.2%).',
    });
    expect(await queued('deliver-alerts', userId)).toBe(0);

    // Below 50%: critical, and delivery is asked to tell it again.
    await inboxTest(userId, 'brand.test', 8, 18, hoursAgo(1));
    expect(await evaluate(userId)).toMatchObject({ escalated: 1 });
    expect(await alertOf(userId, 'inbox:brand.test')).toMatchObject({ severity: 'critical', notifiedAt: null });
    expect(await queued('deliver-alerts', userId)).toBe(1);

    // A good test: resolved, and the history says so.
    await inboxTest(userId, 'brand.test', 18, 18, hoursAgo(0.5));
    expect(await evaluate(userId)).toMatchObject({ resolved: 1 });
    const resolved = await alertOf(userId, 'inbox:brand.test');
    expect(resolved!.resolvedAt).not.toBeNull();
    expect(resolved!.history.map((h) => h.event)).toEqual(['raised', 'updated', 'updated', 'resolved']);
    expect(resolved!.history.at(-1)!.message).toBe(
      'Recovered: Inbox placement for brand.test is 100% in the latest test (threshold 90%).',
    );

    // A higher threshold in Alert Settings makes 95% a warning.
    await db().insert(alertSettings).values({ userId, inboxThreshold: 96 });
    await evaluate(userId);
    expect(await alertOf(userId, 'inbox:other.test')).toMatchObject({ severity: 'warning', resolvedAt: null });
  });

  it('email metrics: bounce, complaint and delivery rates of the latest day and the volume against the day before, from every provider', async () => {
    const userId = await newUser();
    await metrics(userId, addDays(TODAY, -2), { sent: 300, delivered: 290 });
    await metrics(userId, YESTERDAY, { sent: 600, delivered: 590 }, 'sendgrid');
    await metrics(userId, YESTERDAY, { sent: 600, delivered: 590 }, 'mailgun'); // 1200 in all: +300% on 300
    await metrics(userId, TODAY, { sent: 500, delivered: 440, bounced: 30, complaints: 2 }, 'sendgrid');
    await metrics(userId, TODAY, { sent: 500, delivered: 440, bounced: 30, complaints: 1 }, 'mailgun');
    // Today: 1000 sent, 880 delivered (88%), 60 bounced (6%), 3 complaints of 880 delivered (0.34%).

    expect(await evaluate(userId)).toMatchObject({ raised: 4 });
    expect(await alertOf(userId, 'metrics:bounce')).toMatchObject({
      type: 'bounce',
      severity: 'warning',
      title: 'Bounce rate 6%',
    });
    expect((await alertOf(userId, 'metrics:bounce'))!.metadata).toMatchObject({
      value: 6,
      threshold: 5,
      sent: 1000,
      bounced: 60,
      window: '1 day',
      period: `on ${TODAY} (UTC)`,
    });
    expect(await alertOf(userId, 'metrics:complaints')).toMatchObject({ type: 'spam', severity: 'warning' });
    expect((await alertOf(userId, 'metrics:complaints'))!.metadata).toMatchObject({
      value: 0.34,
      threshold: 0.3,
      delivered: 880,
      complaints: 3,
    });
    expect(await alertOf(userId, 'metrics:delivery')).toMatchObject({
      type: 'deliverability',
      severity: 'warning',
      title: 'Delivery rate 88%',
    });
    const volume = await alertOf(userId, 'metrics:volume');
    expect(volume).toMatchObject({ type: 'suspicious_activity', severity: 'warning', title: 'Sending volume up 300%' });
    expect(volume!.metadata).toMatchObject({ value: 300, threshold: 200, sent: 1200, previousSent: 300 });

    // Worse: bounces past twice the threshold, delivery below 85%: critical.
    await metrics(userId, TODAY, { sent: 500, delivered: 400, bounced: 80, complaints: 2 }, 'mailgun');
    expect(await evaluate(userId)).toMatchObject({ escalated: 2, updated: 1 });
    expect(await alertOf(userId, 'metrics:bounce')).toMatchObject({ severity: 'critical' });
    expect((await alertOf(userId, 'metrics:bounce'))!.history.at(-1)!.message).toBe(
      'Bounce rate now 11% (was 6%); escalated from warning to critical.',
    );
    expect(await alertOf(userId, 'metrics:delivery')).toMatchObject({ severity: 'critical' });

    // Recovered: every rate within its threshold; the volume back to normal.
    await metrics(userId, TODAY, { sent: 500, delivered: 495, bounced: 5, complaints: 0 }, 'sendgrid');
    await metrics(userId, TODAY, { sent: 500, delivered: 495, bounced: 5, complaints: 0 }, 'mailgun');
    await metrics(userId, addDays(TODAY, -2), { sent: 1000, delivered: 990 });
    expect(await evaluate(userId)).toMatchObject({ resolved: 4 });
    expect(await openAlerts(userId)).toEqual([]);
    expect((await alertOf(userId, 'metrics:bounce'))!.history.at(-1)!.message).toBe(
      'Recovered: the bounce rate is 1% (threshold 5%).',
    );
    expect((await alertOf(userId, 'metrics:volume'))!.history.at(-1)!.message).toBe(
      'Recovered: sending volume changed +20% against the day before, within -50% to +200%.',
    );
  });

  it('email metrics: judged on yesterday when today has none yet, never on fewer than 100 messages, and a fall of half is an anomaly', async () => {
    const few = await newUser();
    await metrics(few, TODAY, { sent: 99, delivered: 50, bounced: 49 });
    expect(await evaluate(few)).toMatchObject({ raised: 0 });

    const userId = await newUser();
    await metrics(userId, addDays(TODAY, -2), { sent: 1000, delivered: 1000 });
    await metrics(userId, YESTERDAY, { sent: 400, delivered: 396, bounced: 4 });
    await evaluate(userId);
    expect((await openAlerts(userId)).map((a) => [a.conditionKey, a.title])).toEqual([
      ['metrics:volume', 'Sending volume down 60%'],
    ]);

    // Figures stop coming (nothing for today or yesterday): no longer judged, so resolved as such.
    await db()
      .delete(emailMetrics)
      .where(and(eq(emailMetrics.userId, userId), eq(emailMetrics.date, YESTERDAY)));
    await evaluate(userId);
    expect((await alertOf(userId, 'metrics:volume'))!.history.at(-1)!.message).toMatch(
      /^Recovered: no longer monitored/,
    );
  });

  it('sender score: IPs and domains below the threshold, critical below 50, not scored is not a condition, a removed IP resolves', async () => {
    const userId = await newUser();
    await db()
      .insert(ipAddresses)
      .values([
        { userId, ipAddress: '203.0.113.10', type: 'dedicated', senderScore: 65 },
        { userId, ipAddress: '203.0.113.11', type: 'dedicated', senderScore: null },
        { userId, ipAddress: '203.0.113.12', type: 'dedicated', senderScore: 95 },
      ]);
    await db()
      .insert(domains)
      .values({ userId, domain: 'scored.test', verificationToken: 'tok-scored', reputationScore: 42 });
    await evaluate(userId);
    expect((await openAlerts(userId)).map((a) => [a.conditionKey, a.type, a.severity])).toEqual([
      ['score:domain:scored.test', 'reputation_decline', 'critical'],
      ['score:ip:203.0.113.10', 'reputation_decline', 'warning'],
    ]);
    expect((await alertOf(userId, 'score:ip:203.0.113.10'))!.metadata).toMatchObject({
      value: 65,
      threshold: 70,
      ipAddress: '203.0.113.10',
    });

    await db().delete(ipAddresses).where(eq(ipAddresses.userId, userId));
    await db().update(domains).set({ reputationScore: 88 }).where(eq(domains.userId, userId));
    expect(await evaluate(userId)).toMatchObject({ resolved: 2 });
    expect((await alertOf(userId, 'score:ip:203.0.113.10'))!.history.at(-1)!.message).toBe(
      'Recovered: no longer monitored: 203.0.113.10 is no longer monitored or scored.',
    );
    expect((await alertOf(userId, 'score:domain:scored.test'))!.history.at(-1)!.message).toBe(
      'Recovered: the sender score of scored.test is 88 (threshold 70).',
    );
  });

  it('authentication records: warning for issues, error for a missing record, resolved when all pass or the domain is gone', async () => {
    const userId = await newUser();
    const checked = { lastCheckedAt: hoursAgo(1), spfStatus: 'valid' as const, dmarcStatus: 'valid' as const };
    await db()
      .insert(domains)
      .values([
        {
          userId,
          domain: 'issues.test',
          verificationToken: 'tok-issues',
          status: 'warning',
          ...checked,
          dkimStatus: 'missing',
        },
        {
          userId,
          domain: 'broken.test',
          verificationToken: 'tok-broken',
          status: 'error',
          ...checked,
          dmarcStatus: 'missing',
          dkimStatus: 'valid',
        },
        {
          userId,
          domain: 'fine.test',
          verificationToken: 'tok-fine',
          status: 'healthy',
          ...checked,
          dkimStatus: 'valid',
        },
        { userId, domain: 'unchecked.test', verificationToken: 'tok-unchecked' },
      ]);
    await evaluate(userId);
    expect((await openAlerts(userId)).map((a) => [a.conditionKey, a.type, a.severity, a.title])).toEqual([
      ['auth-records:broken.test', 'authentication_failure', 'error', 'broken.test fails its authentication checks'],
      ['auth-records:issues.test', 'authentication_failure', 'warning', 'issues.test has authentication issues'],
    ]);
    expect(await alertOf(userId, 'auth-records:issues.test')).toMatchObject({
      message: 'No DKIM record was found. Open the domain to see how to fix each record.',
      metadata: {
        value: 'DKIM missing',
        domain: 'issues.test',
        status: 'warning',
        spf: 'valid',
        dkim: 'missing',
        dmarc: 'valid',
      },
    });

    await db()
      .update(domains)
      .set({ status: 'healthy', dkimStatus: 'valid' })
      .where(and(eq(domains.userId, userId), eq(domains.domain, 'issues.test')));
    await db()
      .delete(domains)
      .where(and(eq(domains.userId, userId), eq(domains.domain, 'broken.test')));
    expect(await evaluate(userId)).toMatchObject({ resolved: 2 });
    expect((await alertOf(userId, 'auth-records:issues.test'))!.history.at(-1)!.message).toBe(
      'Recovered: SPF, DKIM and DMARC of issues.test are all valid.',
    );
    expect((await alertOf(userId, 'auth-records:broken.test'))!.history.at(-1)!.message).toBe(
      'Recovered: no longer monitored: broken.test is no longer one of your checked domains.',
    );
  });

  it('DMARC failures: the share failing over 7 days, with the top failing sources, from 100 messages', async () => {
    const userId = await newUser();
    const day = (d: string, domain: string, sourceIp: string, total: number, failed: number) => ({
      userId,
      day: d,
      domain,
      sourceIp,
      disposition: failed ? 'quarantine' : 'none',
      total,
      spfAligned: total - failed,
      dkimAligned: total - failed,
      failed,
      failedMisaligned: 0,
    });
    await db()
      .insert(dmarcSourceDays)
      .values([
        day(addDays(TODAY, -8), 'brand.test', '192.0.2.99', 5000, 5000), // older than 7 days
        day(addDays(TODAY, -6), 'brand.test', '203.0.113.7', 120, 120),
        day(YESTERDAY, 'brand.test', '198.51.100.1', 880, 0),
        day(TODAY, 'brand.test', '203.0.113.8', 30, 30),
        day(TODAY, 'tiny.test', '203.0.113.9', 99, 99), // too few messages
      ]);
    await evaluate(userId);
    const alert = await alertOf(userId, 'dmarc-failures:brand.test');
    expect(alert).toMatchObject({
      type: 'authentication_failure',
      severity: 'warning',
      domain: 'brand.test',
      title: '14.6% of mail as brand.test fails DMARC',
    });
    expect(alert!.metadata).toMatchObject({
      value: 14.6,
      threshold: 5,
      window: '7d',
      messages: 1030,
      failed: 150,
      topFailingSources: [
        { ip: '203.0.113.7', count: 120 },
        { ip: '203.0.113.8', count: 30 },
      ],
    });
    expect(alert!.message).toContain('the top failing source is 203.0.113.7 (120)');
    expect(await alertOf(userId, 'dmarc-failures:tiny.test')).toBeUndefined();

    await db()
      .insert(dmarcSourceDays)
      .values(day(TODAY, 'brand.test', '203.0.113.10', 200, 200));
    expect(await evaluate(userId)).toMatchObject({ escalated: 1 });
    expect(await alertOf(userId, 'dmarc-failures:brand.test')).toMatchObject({ severity: 'critical' });
  });

  it("alert rules: the rule's own thresholds and window, its metadata for delivery, and resolved when deleted or switched off", async () => {
    const userId = await newUser();
    for (let i = 0; i < 7; i++)
      await metrics(userId, addDays(TODAY, -i), { sent: 1000, delivered: 990, bounced: i === 6 ? 200 : 10 });
    await db()
      .insert(domains)
      .values({ userId, domain: 'ruled.test', verificationToken: 'tok-ruled', reputationScore: 74 });
    await inboxTest(userId, 'ruled.test', 9, 10, hoursAgo(50)); // 90%
    await inboxTest(userId, 'ruled.test', 7, 10, hoursAgo(2)); // 70%

    // 1% bounces today: under the settings' 5%, over this rule's 0.5% warning. No events came in its
    // 24 hours, so it is judged on the provider's daily statistics (an hour's rule could not be).
    const daily = await rule(userId, {
      type: 'bounceRate',
      warning: 0.5,
      critical: 3,
      timeWindow: '24h',
      name: 'Bounces',
    });
    // 7 days: 260 of 7000 = 3.71%: critical for this one.
    const weekly = await rule(userId, { type: 'bounceRate', warning: 1, critical: 3, timeWindow: '7d' });
    const score = await rule(userId, { type: 'senderScore', warning: 80, critical: 60, domain: 'ruled.test' });
    // Inbox rate over 7 days: 16 of 20 = 80%; the latest test alone (70%) would be critical.
    const inbox = await rule(userId, { type: 'inboxRate', warning: 85, critical: 75, timeWindow: '7d' });
    const quiet = await rule(userId, { type: 'deliveryRate', warning: 90, critical: 80 });

    await evaluate(userId);
    const byKey = Object.fromEntries(
      (await openAlerts(userId)).filter((a) => a.conditionKey!.startsWith('rule:')).map((a) => [a.conditionKey, a]),
    );
    expect(Object.keys(byKey).sort()).toEqual(
      [`rule:${daily}`, `rule:${inbox}:ruled.test`, `rule:${score}:ruled.test`, `rule:${weekly}`].sort(),
    );
    expect(byKey[`rule:${daily}`]).toMatchObject({
      type: 'bounce',
      severity: 'warning',
      title: 'Bounces: Bounce rate 1%',
    });
    expect(byKey[`rule:${daily}`].metadata).toMatchObject({
      ruleId: daily,
      ruleName: 'Bounces',
      value: 1,
      threshold: 0.5,
      warningThreshold: 0.5,
      criticalThreshold: 3,
      window: '24h',
      sent: 1000,
      basis: 'daily figures',
    });
    expect(byKey[`rule:${weekly}`]).toMatchObject({ severity: 'critical' });
    expect(byKey[`rule:${weekly}`].metadata).toMatchObject({ value: 3.71, window: '7d', sent: 7000 });
    expect(byKey[`rule:${score}:ruled.test`]).toMatchObject({
      type: 'reputation_decline',
      severity: 'warning',
      domain: 'ruled.test',
    });
    expect(byKey[`rule:${inbox}:ruled.test`]).toMatchObject({ type: 'deliverability_drop', severity: 'warning' });
    expect(byKey[`rule:${inbox}:ruled.test`].metadata).toMatchObject({ value: 80, inbox: 16, seeds: 20, tests: 2 });
    expect(await alertOf(userId, `rule:${quiet}`)).toBeUndefined();
    // The settings' own bounce condition (5%) does not fire.
    expect(await alertOf(userId, 'metrics:bounce')).toBeUndefined();

    await db().delete(alertRules).where(eq(alertRules.id, daily));
    await db().update(alertRules).set({ enabled: false }).where(eq(alertRules.id, weekly));
    expect(await evaluate(userId)).toMatchObject({ resolved: 2 });
    expect((await alertOf(userId, `rule:${daily}`))!.history.at(-1)!.message).toMatch(
      /^Recovered: no longer monitored: the rule was deleted or switched off/,
    );
    expect((await alertOf(userId, `rule:${score}:ruled.test`))!.resolvedAt).toBeNull();
  });

  it("Gmail's spam rate from Postmaster Tools: warning from 0.1 %, critical from 0.3 %, on the latest day, resolved when it falls or grows old", async () => {
    const { user } = await signUp(t.app);
    const [postmaster] = await db()
      .insert(integrations)
      .values({ userId: user.id, provider: 'google-postmaster', type: 'analytics', status: 'active' })
      .returning();
    const day = (date: string, domain: string, ratio: number) => ({
      userId: user.id,
      integrationId: postmaster.id,
      domain,
      date,
      userReportedSpamRatio: ratio,
    });
    await db()
      .insert(postmasterStats)
      .values([
        day(addDays(TODAY, -3), 'news.example.com', 0.0005),
        day(YESTERDAY, 'news.example.com', 0.0034),
        day(YESTERDAY, 'shop.example.com', 0.0012),
        day(YESTERDAY, 'ok.example.com', 0.0004),
        // Older than the window: not judged.
        day(addDays(TODAY, -10), 'old.example.com', 0.02),
      ]);
    await evaluate(user.id);
    expect(await alertOf(user.id, 'gmail-spam:news.example.com')).toMatchObject({
      type: 'spam',
      severity: 'critical',
      title: 'Gmail spam rate of news.example.com is 0.34%',
      domain: 'news.example.com',
    });
    expect(await alertOf(user.id, 'gmail-spam:shop.example.com')).toMatchObject({
      severity: 'warning',
      title: 'Gmail spam rate of shop.example.com is 0.12%',
    });
    expect(await alertOf(user.id, 'gmail-spam:ok.example.com')).toBeUndefined();
    expect(await alertOf(user.id, 'gmail-spam:old.example.com')).toBeUndefined();

    // Today's figure is lower: the alert is resolved with what the data says.
    await db()
      .insert(postmasterStats)
      .values(day(TODAY, 'news.example.com', 0.0006));
    await evaluate(user.id);
    const resolved = await alertOf(user.id, 'gmail-spam:news.example.com');
    expect(resolved?.resolvedAt).not.toBeNull();
    expect(JSON.stringify(resolved?.history)).toContain("Gmail's spam rate for news.example.com was 0.06%");
    expect((await alertOf(user.id, 'gmail-spam:shop.example.com'))?.resolvedAt).toBeNull();
  });

  it('two evaluations at once raise one alert, and the second writes nothing', async () => {
    const userId = await newUser();
    await inboxTest(userId, 'race.test', 1, 10, hoursAgo(1));
    const summaries = await Promise.all([evaluate(userId), evaluate(userId)]);
    expect(summaries.map((s) => s.raised).sort()).toEqual([0, 1]);
    expect(summaries.map((s) => s.updated + s.escalated + s.resolved)).toEqual([0, 0]);
    expect(await openAlerts(userId)).toHaveLength(1);
  });
});

describe('the evaluation jobs', () => {
  it('the hourly schedule queues one evaluation per user with something to evaluate, none for a user without', async () => {
    expect(evaluateAlertsRunner.policy).toBe('stately');
    expect(scheduleAlertEvaluationsRunner.schedule).toBe('15 * * * *');
    const withRule = await newUser();
    const withMetrics = await newUser();
    const without = await newUser();
    await rule(withRule, { type: 'bounceRate', warning: 1, critical: 2 });
    await metrics(withMetrics, TODAY, { sent: 1, delivered: 1 });
    // the schedule reads only these
    const ctx = { db: db(), jobs: t.jobs, log: pino({ level: 'silent' }) } as unknown as AppContext;
    await scheduleAlertEvaluationsRunner.run({}, ctx);
    await scheduleAlertEvaluationsRunner.run({}, ctx); // the next tick while they still wait
    expect([
      await queued('evaluate-alerts', withRule),
      await queued('evaluate-alerts', withMetrics),
      await queued('evaluate-alerts', without),
    ]).toEqual([1, 1, 0]);
  });

  it('saving Alert Settings and adding or deleting a rule queue an evaluation', async () => {
    const { client, user } = await signUp(t.app);
    expect((await client.request('PUT', '/api/alert-settings', { bounceThreshold: 3 })).statusCode).toBe(200);
    expect(await queued('evaluate-alerts', user.id)).toBe(1);
    await clearQueue(user.id);
    const created = await client.post('/api/alerts/rules', {
      name: 'Bounces',
      type: 'bounceRate',
      threshold: { warning: 2, critical: 5 },
    });
    expect(created.statusCode).toBe(200);
    expect(await queued('evaluate-alerts', user.id)).toBe(1);
    await clearQueue(user.id);
    expect((await client.delete(`/api/alerts/rules/${created.json().id}`)).statusCode).toBe(204);
    expect(await queued('evaluate-alerts', user.id)).toBe(1);
  });
});
