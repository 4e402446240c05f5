import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_ALERT_RULES, SMS_UNAVAILABLE } from '@contracts/alert-settings';
import { alertRules } from '../platform/db/schema/index';
import { caughtUp } from '../test/caught-up';
import { createTestApp, signUp, TestClient, type TestApp } from '../test/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function professional(userId: number) {
  await t.database.db.execute(sql`UPDATE users SET subscription_plan = 'professional' WHERE id = ${userId}`);
  await caughtUp(t);
}

const bounceRule = { name: 'Bounces', type: 'bounceRate', threshold: { warning: 3, critical: 5 } };

describe('alert rules', () => {
  it('creates with the defaults, lists newest first and deletes, each user’s own only', async () => {
    const alice = await signUp(t.app);
    const bob = await signUp(t.app);
    const first = await alice.client.post('/api/alerts/rules', bounceRule);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({
      id: expect.any(Number),
      name: 'Bounces',
      type: 'bounceRate',
      domain: null,
      threshold: { warning: 3, critical: 5 },
      notifications: { email: true, webhook: false, slack: false, sms: false },
      timeWindow: '1h',
      enabled: true,
      createdAt: expect.any(String),
      judgedOn:
        'Judged on the MTA and ESP delivery events of the last hour, all domains. Statistics imported per day from an ESP cannot be split into hours, so they count only in 24-hour and 7-day rules.',
    });
    const second = await alice.client.post('/api/alerts/rules', {
      name: '  Inbox placement  ',
      type: 'inboxRate',
      threshold: { warning: 90, critical: 80 },
      timeWindow: '24h',
      enabled: false,
    });
    expect(second.json()).toMatchObject({
      name: 'Inbox placement',
      timeWindow: '24h',
      enabled: false,
      judgedOn: 'Judged on the inbox tests completed in the last 24 hours, per From domain.',
    });
    await bob.client.post('/api/alerts/rules', { ...bounceRule, name: 'Bob’s' });

    // The static path, not /api/alerts/:id with id "rules".
    const list = await alice.client.get('/api/alerts/rules');
    expect(list.statusCode).toBe(200);
    expect(list.json().map((r: { id: number }) => r.id)).toEqual([second.json().id, first.json().id]);

    const intruder = await bob.client.delete(`/api/alerts/rules/${first.json().id}`);
    expect(intruder.statusCode).toBe(404);
    expect(intruder.json()).toEqual({ code: 'not_found', message: 'Alert rule not found' });
    expect((await bob.client.delete('/api/alerts/rules/999999')).json()).toEqual(intruder.json());
    const deleted = await alice.client.delete(`/api/alerts/rules/${first.json().id}`);
    expect(deleted.statusCode).toBe(204);
    expect(deleted.body).toBe('');
    expect((await alice.client.get('/api/alerts/rules')).json().map((r: { id: number }) => r.id)).toEqual([
      second.json().id,
    ]);
    expect((await bob.client.get('/api/alerts/rules')).json()).toHaveLength(1);
    expect((await new TestClient(t.app).get('/api/alerts/rules')).statusCode).toBe(401);
  });

  it('puts critical beyond warning in the rule’s direction and keeps shares within 100', async () => {
    const { client } = await signUp(t.app);
    const cases: [Record<string, unknown>, string][] = [
      [
        { ...bounceRule, threshold: { warning: 5, critical: 3 } },
        'threshold.critical must be above threshold.warning: Bounce rate alerts when it goes above them',
      ],
      [
        { ...bounceRule, threshold: { warning: 5, critical: 5 } },
        'threshold.critical must be above threshold.warning: Bounce rate alerts when it goes above them',
      ],
      [
        { name: 'Inbox', type: 'inboxRate', threshold: { warning: 80, critical: 90 } },
        'threshold.critical must be below threshold.warning: Inbox placement rate alerts when it goes below them',
      ],
      [
        { name: 'Score', type: 'senderScore', threshold: { warning: 70, critical: 70 } },
        'threshold.critical must be below threshold.warning: Sender score alerts when it goes below them',
      ],
      [
        { name: 'Complaints', type: 'complaintRate', threshold: { warning: 50, critical: 101 } },
        'threshold.critical must be at most 100 for Spam complaint rate',
      ],
      [
        { name: 'Delivery', type: 'deliveryRate', threshold: { warning: 120, critical: 95 } },
        'threshold.warning must be at most 100 for Delivery rate',
      ],
      [{ ...bounceRule, threshold: { warning: -1, critical: 5 } }, 'threshold.warning must be 0 or more'],
      [{ ...bounceRule, threshold: { warning: 1, critical: 'high' } }, 'threshold.critical must be a number'],
      [{ ...bounceRule, name: '   ' }, 'name is required'],
      [
        { ...bounceRule, type: 'openRate' },
        'type must be one of inboxRate, deliveryRate, bounceRate, complaintRate, senderScore, volumeIncrease, volumeDecrease',
      ],
      [{ ...bounceRule, timeWindow: '2h' }, 'timeWindow must be one of 10m, 1h, 6h, 24h, 7d'],
    ];
    for (const [body, message] of cases) {
      const res = await client.post('/api/alerts/rules', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json(), JSON.stringify(body)).toEqual({ code: 'validation_error', message });
    }
    expect((await client.get('/api/alerts/rules')).json()).toEqual([]);

    // The documented volume anomaly: a 200% increase is a valid threshold.
    const volume = await client.post('/api/alerts/rules', {
      name: 'Volume spike',
      type: 'volumeIncrease',
      threshold: { warning: 150, critical: 200 },
    });
    expect(volume.statusCode, volume.body).toBe(200);
    const drop = await client.post('/api/alerts/rules', {
      name: 'Volume drop',
      type: 'volumeDecrease',
      threshold: { warning: 50, critical: 80 },
    });
    expect(drop.statusCode, drop.body).toBe(200);
  });

  it('takes only one of the user’s own domains', async () => {
    const alice = await signUp(t.app);
    const bob = await signUp(t.app);
    expect((await alice.client.post('/api/domains', { domain: 'alice-brand.com' })).statusCode).toBe(200);
    expect((await bob.client.post('/api/domains', { domain: 'bob-brand.com' })).statusCode).toBe(200);

    const own = await alice.client.post('/api/alerts/rules', { ...bounceRule, domain: ' Alice-Brand.COM ' });
    expect(own.statusCode, own.body).toBe(200);
    expect(own.json().domain).toBe('alice-brand.com');
    // Imported daily statistics are the account's: the rule says it is judged on its domain's events only.
    expect(own.json().judgedOn).toBe(
      "Judged on the MTA and ESP delivery events of the last hour sent from alice-brand.com or its subdomains. Statistics imported per day from an ESP cover your whole account, so they do not count for one domain's rule.",
    );
    for (const domain of ['bob-brand.com', 'nobody-has-this.com']) {
      const res = await alice.client.post('/api/alerts/rules', { ...bounceRule, domain });
      expect(res.statusCode, domain).toBe(400);
      expect(res.json()).toEqual({ code: 'validation_error', message: `domain ${domain} is not one of your domains` });
    }
    expect((await alice.client.get('/api/alerts/rules')).json()).toHaveLength(1);
  });

  it('needs advanced_alerting for Slack, SMS and webhook notifications', async () => {
    const { client, user } = await signUp(t.app);
    for (const channel of ['slack', 'sms', 'webhook']) {
      const res = await client.post('/api/alerts/rules', {
        ...bounceRule,
        notifications: { email: true, [channel]: true },
      });
      expect(res.statusCode, channel).toBe(403);
      expect(res.json()).toEqual({ code: 'forbidden', message: 'Requires Professional plan' });
    }
    expect((await client.get('/api/alerts/rules')).json()).toEqual([]);
    await professional(user.id);
    const res = await client.post('/api/alerts/rules', {
      ...bounceRule,
      notifications: { email: false, slack: true, sms: false, webhook: true },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().notifications).toEqual({ email: false, slack: true, sms: false, webhook: true });
  });

  it('refuses a rule that texts when the server has no SMS provider, and takes it when one is set up', async () => {
    const { client, user } = await signUp(t.app); // this app has no TWILIO_* settings
    await professional(user.id);
    const refused = await client.post('/api/alerts/rules', {
      ...bounceRule,
      notifications: { email: true, sms: true },
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({ code: 'conflict', message: SMS_UNAVAILABLE });
    expect((await client.get('/api/alerts/rules')).json()).toEqual([]);

    const twilio = {
      TWILIO_ACCOUNT_SID: 'AC0123456789abcdef0123456789abcdef',
      TWILIO_AUTH_TOKEN: 'token',
      TWILIO_FROM: '+15017122661',
    };
    const withSms = await createTestApp({ env: twilio });
    try {
      const other = await signUp(withSms.app);
      await withSms.database.db.execute(
        sql`UPDATE users SET subscription_plan = 'professional' WHERE id = ${other.user.id}`,
      );
      await caughtUp(withSms);
      const taken = await other.client.post('/api/alerts/rules', {
        ...bounceRule,
        notifications: { email: true, sms: true },
      });
      expect(taken.statusCode, taken.body).toBe(200);
      expect(taken.json().notifications).toMatchObject({ sms: true });
    } finally {
      await withSms.close();
    }
  });

  it(`keeps at most ${MAX_ALERT_RULES} rules, also when several are created at once`, async () => {
    const { client, user } = await signUp(t.app);
    await t.database.db.insert(alertRules).values(
      Array.from({ length: MAX_ALERT_RULES - 3 }, (_, i) => ({
        userId: user.id,
        name: `Rule ${i}`,
        type: 'bounceRate',
        warningThreshold: 3,
        criticalThreshold: 5,
        notifications: { email: true, webhook: false, slack: false, sms: false },
        timeWindow: '1h',
      })),
    );
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) => client.post('/api/alerts/rules', { ...bounceRule, name: `Late ${i}` })),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 200, 200, 400, 400, 400]);
    expect(answers.find((a) => a.statusCode === 400)!.json()).toEqual({
      code: 'validation_error',
      message: `You can keep at most ${MAX_ALERT_RULES} alert rules: delete one to add another`,
    });
    expect((await client.get('/api/alerts/rules')).json()).toHaveLength(MAX_ALERT_RULES);
  });
});
