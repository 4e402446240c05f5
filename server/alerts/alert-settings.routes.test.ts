import { eq, sql } from 'drizzle-orm';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alertSettings } from '../platform/db/schema/index';
import { alertDeliverySettings, publicHostMessage } from './alert-settings.service';
import { decryptSecret } from '../platform/security/secret-box';
import { caughtUp } from '../test/caught-up';
import { startDnsServer, type TestDnsServer } from '../test/dns-server';
import { createTestApp, signUp, TestClient, type TestApp } from '../test/test-app';

const SLACK_URL = 'https://hooks.slack.com/services/T0SECRET1/B0SECRET2/abcdefghijklmnopqrstuvwx';
const WEBHOOK_URL = 'https://hooks.receiver.example/inboxpulse?tag=alerts';
const SLACK_URL_MESSAGE =
  'slackWebhookUrl must be a Slack incoming webhook URL such as https://hooks.slack.com/services/T000/B000/XXXX';

let dns: TestDnsServer;
let t: TestApp;
const logged: string[] = [];
beforeAll(async () => {
  dns = await startDnsServer({
    'hooks.receiver.example': { A: ['93.184.216.34'] },
    'loopback.receiver.example': { A: ['127.0.0.1'] },
    'private.receiver.example': { A: ['93.184.216.34', '10.20.30.40'] },
    'v6-loopback.receiver.example': { AAAA: ['::1'] },
    'hooks.slack.com': { A: ['34.226.36.49'] },
    'hooks.slack-gov.com': { A: ['10.9.8.7'] },
  });
  const sink = new Writable({
    write(chunk, _encoding, done) {
      logged.push(String(chunk));
      done();
    },
  });
  // A server with an SMS provider (Twilio's credentials; nothing is sent by these tests).
  t = await createTestApp({
    env: {
      DNS_SERVERS: dns.address,
      TWILIO_ACCOUNT_SID: 'AC0123456789abcdef0123456789abcdef',
      TWILIO_AUTH_TOKEN: 'token',
      TWILIO_FROM: '+15017122661',
    },
    logger: pino({ level: 'debug' }, sink),
  });
});
afterAll(async () => {
  await t.close();
  await dns.close();
});

const put = (client: TestClient, body: unknown) => client.request('PUT', '/api/alert-settings', body);

async function professional(userId: number) {
  await t.database.db.execute(sql`UPDATE users SET subscription_plan = 'professional' WHERE id = ${userId}`);
  // The session cache sees a change made behind the app's back once the database's notification arrives.
  await caughtUp(t);
}

const DEFAULTS = {
  emailDeliverability: true,
  emailReputation: true,
  emailBounce: true,
  emailSpam: true,
  inboxThreshold: 90,
  bounceThreshold: 5,
  spamThreshold: 0.3,
  reputationThreshold: 70,
  slackEnabled: false,
  slackWebhookPreview: null,
  slackChannel: null,
  smsEnabled: false,
  smsNumber: null,
  smsVerified: false,
  smsAvailable: true,
  webhookEnabled: false,
  webhookUrl: null,
  frequency: 'immediate',
  quietHours: null,
  updatedAt: null,
};

describe('Alert Settings', () => {
  it('answers the spec’s defaults until saved; {} changes nothing; a partial update keeps the other fields', async () => {
    const { client } = await signUp(t.app);
    const first = await client.get('/api/alert-settings');
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual(DEFAULTS);

    const empty = await put(client, {});
    expect(empty.statusCode).toBe(200);
    expect(empty.json()).toEqual(DEFAULTS);

    const saved = await put(client, { inboxThreshold: 85, emailSpam: false, frequency: 'daily' });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toEqual({
      ...DEFAULTS,
      inboxThreshold: 85,
      emailSpam: false,
      frequency: 'daily',
      updatedAt: expect.any(String),
    });

    const again = await put(client, {
      spamThreshold: 1.2,
      quietHours: { start: '22:00', end: '07:00', timeZone: 'Europe/Paris' },
    });
    expect(again.json()).toMatchObject({
      inboxThreshold: 85,
      emailSpam: false,
      frequency: 'daily',
      spamThreshold: 1.2,
    });
    expect(again.json().quietHours).toEqual({ start: '22:00', end: '07:00', timeZone: 'Europe/Paris' });
    expect((await put(client, {})).json()).toEqual(again.json());
    expect((await client.get('/api/alert-settings')).json()).toEqual(again.json());

    const cleared = await put(client, { quietHours: null });
    expect(cleared.json().quietHours).toBeNull();
  });

  it('keeps each user’s settings apart and refuses signed-out callers', async () => {
    const alice = await signUp(t.app);
    const bob = await signUp(t.app);
    await put(alice.client, { reputationThreshold: 55 });
    expect((await bob.client.get('/api/alert-settings')).json().reputationThreshold).toBe(70);
    expect((await new TestClient(t.app).get('/api/alert-settings')).statusCode).toBe(401);
    expect((await put(new TestClient(t.app), { inboxThreshold: 1 })).statusCode).toBe(401);
  });

  it('refuses bad input with a message naming the field and changes nothing', async () => {
    const { client } = await signUp(t.app);
    await put(client, { bounceThreshold: 4 });
    const before = (await client.get('/api/alert-settings')).json();
    const cases: [Record<string, unknown>, string][] = [
      [{ inboxThreshold: 101 }, 'inboxThreshold must be between 0 and 100'],
      [{ inboxThreshold: -1 }, 'inboxThreshold must be between 0 and 100'],
      [{ bounceThreshold: 100.5 }, 'bounceThreshold must be between 0 and 100'],
      [{ reputationThreshold: -0.1 }, 'reputationThreshold must be between 0 and 100'],
      [{ reputationThreshold: '70' }, 'reputationThreshold must be a number'],
      [{ spamThreshold: 10.1 }, 'spamThreshold must be between 0 and 10'],
      [{ spamThreshold: -1 }, 'spamThreshold must be between 0 and 10'],
      [{ spamThreshold: 0.35 }, 'spamThreshold goes in steps of 0.1'],
      [{ smsNumber: '0612345678' }, 'smsNumber must be an international number such as +14155550123'],
      [{ smsNumber: '+1 415' }, 'smsNumber must be an international number such as +14155550123'],
      [{ webhookUrl: 'http://hooks.receiver.example/x' }, 'webhookUrl must be an https:// URL'],
      [{ webhookUrl: 'not a url' }, 'webhookUrl must be an https:// URL'],
      // Slack's incoming webhooks are https://hooks.slack.com/services/... (api.slack.com/messaging/webhooks).
      [{ slackWebhookUrl: 'http://hooks.slack.com/services/T/B/X' }, SLACK_URL_MESSAGE],
      [{ slackWebhookUrl: 'https://hooks.receiver.example/services/T/B/X' }, SLACK_URL_MESSAGE],
      [{ slackWebhookUrl: 'https://hooks.slack.com.receiver.example/services/T/B/X' }, SLACK_URL_MESSAGE],
      [{ slackWebhookUrl: 'https://discord.com/api/webhooks/1/abc' }, SLACK_URL_MESSAGE],
      [{ slackWebhookUrl: 'https://hooks.slack.com/' }, SLACK_URL_MESSAGE],
      [{ frequency: 'monthly' }, 'frequency must be one of immediate, hourly, daily, weekly'],
      [
        { quietHours: { start: '25:00', end: '07:00', timeZone: 'Europe/Paris' } },
        'quietHours.start must be a time like 22:00',
      ],
      [
        { quietHours: { start: '22:00', end: '7', timeZone: 'Europe/Paris' } },
        'quietHours.end must be a time like 22:00',
      ],
      [
        { quietHours: { start: '22:00', end: '07:00', timeZone: 'Mars/Olympus' } },
        'quietHours.timeZone must be a time zone such as Europe/Paris',
      ],
      [{ bounceThreshold: 3, colour: 'red' }, 'Request body: Unrecognized key: "colour"'],
    ];
    for (const [body, message] of cases) {
      const res = await put(client, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json(), JSON.stringify(body)).toMatchObject({ code: 'validation_error' });
      expect(res.json().message, JSON.stringify(body)).toBe(message);
    }
    expect((await client.get('/api/alert-settings')).json()).toEqual(before);
  });

  it('normalises a phone number to E.164', async () => {
    const { client, user } = await signUp(t.app);
    await professional(user.id);
    const res = await put(client, { smsEnabled: true, smsNumber: '+1 (415) 555-0123' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ smsEnabled: true, smsNumber: '+14155550123' });
  });

  it('gates Slack, SMS and webhooks on a lower plan: 403 to turn one on, every other field and turning them off allowed', async () => {
    const { client, user } = await signUp(t.app);
    const forbidden = [
      { slackEnabled: true, slackWebhookUrl: SLACK_URL },
      { smsEnabled: true, smsNumber: '+14155550123' },
      { webhookEnabled: true, webhookUrl: WEBHOOK_URL },
    ];
    for (const body of forbidden) {
      const res = await put(client, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(403);
      expect(res.json()).toEqual({ code: 'forbidden', message: 'Requires Professional plan' });
    }
    expect((await client.get('/api/alert-settings')).json()).toEqual(DEFAULTS);

    const allowed = await put(client, {
      inboxThreshold: 80,
      slackEnabled: false,
      smsEnabled: false,
      webhookEnabled: false,
      slackChannel: '#alerts',
    });
    expect(allowed.statusCode, allowed.body).toBe(200);
    expect(allowed.json()).toMatchObject({ inboxThreshold: 80, slackEnabled: false, slackChannel: '#alerts' });

    // Upgraded, the channels go on; downgraded again, they can still be turned off and the rest changed.
    await professional(user.id);
    const on = await put(client, {
      slackEnabled: true,
      slackWebhookUrl: SLACK_URL,
      smsEnabled: true,
      smsNumber: '+14155550123',
      webhookEnabled: true,
      webhookUrl: WEBHOOK_URL,
    });
    expect(on.statusCode, on.body).toBe(200);
    expect(on.json()).toMatchObject({
      slackEnabled: true,
      smsEnabled: true,
      webhookEnabled: true,
      webhookUrl: WEBHOOK_URL,
      smsNumber: '+14155550123',
    });

    await t.database.db.execute(sql`UPDATE users SET subscription_plan = 'free' WHERE id = ${user.id}`);
    await caughtUp(t);
    expect((await put(client, { bounceThreshold: 2 })).statusCode).toBe(200);
    // The same form sent again changes no channel: nothing to gate.
    expect((await put(client, { slackEnabled: true, smsEnabled: true, smsNumber: '+14155550123' })).statusCode).toBe(
      200,
    );
    const retarget = await put(client, { smsNumber: '+14155550199' });
    expect(retarget.statusCode).toBe(403);
    expect((await put(client, { slackWebhookUrl: 'https://hooks.slack.com/services/T1/B1/other' })).statusCode).toBe(
      403,
    );
    const off = await put(client, { slackEnabled: false, smsEnabled: false, webhookEnabled: false });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json()).toMatchObject({
      slackEnabled: false,
      smsEnabled: false,
      webhookEnabled: false,
      bounceThreshold: 2,
      smsNumber: '+14155550123',
    });
  });

  it('needs a target to turn a channel on, naming the missing field', async () => {
    const { client, user } = await signUp(t.app);
    await professional(user.id);
    const cases: [Record<string, unknown>, string][] = [
      [{ slackEnabled: true }, 'slackWebhookUrl is required to turn on Slack alerts'],
      [{ slackEnabled: true, slackWebhookUrl: null }, 'slackWebhookUrl is required to turn on Slack alerts'],
      [{ smsEnabled: true }, 'smsNumber is required to turn on SMS alerts'],
      [{ webhookEnabled: true, webhookUrl: null }, 'webhookUrl is required to turn on webhook alerts'],
    ];
    for (const [body, message] of cases) {
      const res = await put(client, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json()).toEqual({ code: 'validation_error', message });
    }
    // A saved target is enough; removing it while the channel is on is refused.
    expect((await put(client, { smsNumber: '+447700900123' })).statusCode).toBe(200);
    expect((await put(client, { smsEnabled: true })).json()).toMatchObject({
      smsEnabled: true,
      smsNumber: '+447700900123',
    });
    const removed = await put(client, { smsNumber: null });
    expect(removed.statusCode).toBe(400);
    expect(removed.json().message).toBe('smsNumber is required to turn on SMS alerts');
    expect((await client.get('/api/alert-settings')).json()).toMatchObject({
      smsEnabled: true,
      smsNumber: '+447700900123',
    });
  });

  it('keeps the Slack webhook URL encrypted, shows only its preview and never logs it', async () => {
    const { client, user } = await signUp(t.app);
    await professional(user.id);
    const res = await put(client, { slackEnabled: true, slackWebhookUrl: SLACK_URL, slackChannel: '#deliverability' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      slackEnabled: true,
      slackChannel: '#deliverability',
      slackWebhookPreview: 'https://hooks.slack.com/services…',
    });
    expect(res.body).not.toContain('T0SECRET1');
    const read = await client.get('/api/alert-settings');
    expect(read.body).not.toContain(SLACK_URL);
    expect(read.body).not.toContain('B0SECRET2');
    expect(read.json()).not.toHaveProperty('slackWebhookUrl');

    const [row] = await t.database.db.select().from(alertSettings).where(eq(alertSettings.userId, user.id));
    expect(row.slackWebhookUrlEncrypted).not.toContain('hooks.slack.com');
    expect(row.slackWebhookUrlEncrypted).toMatch(/^v1:/);
    expect(decryptSecret(row.slackWebhookUrlEncrypted!, t.env.APP_SECRET)).toBe(SLACK_URL);
    expect(logged.join('\n')).not.toContain('T0SECRET1');
    // The senders get the URL itself, opened from its box.
    expect(await alertDeliverySettings(t.database.db, t.env.APP_SECRET, user.id)).toMatchObject({
      slackEnabled: true,
      slackWebhookUrl: SLACK_URL,
    });

    // Removing it turns Slack off first, or is refused.
    expect((await put(client, { slackWebhookUrl: null })).statusCode).toBe(400);
    const removed = await put(client, { slackEnabled: false, slackWebhookUrl: null });
    expect(removed.json()).toMatchObject({ slackEnabled: false, slackWebhookPreview: null });
    const [after] = await t.database.db.select().from(alertSettings).where(eq(alertSettings.userId, user.id));
    expect(after.slackWebhookUrlEncrypted).toBeNull();
  });

  it('refuses a webhook URL whose host is not public, resolved through the product resolver', async () => {
    const { client, user } = await signUp(t.app);
    await professional(user.id);
    const refused = [
      'https://loopback.receiver.example/hook',
      'https://private.receiver.example/hook',
      'https://v6-loopback.receiver.example/hook',
      'https://169.254.169.254/latest/meta-data/',
      'https://127.0.0.1:8443/hook',
      'https://10.0.0.5/hook',
      'https://[::1]/hook',
    ];
    for (const webhookUrl of refused) {
      const res = await put(client, { webhookEnabled: true, webhookUrl });
      expect(res.statusCode, webhookUrl).toBe(400);
      expect(res.json(), webhookUrl).toEqual({
        code: 'validation_error',
        message: publicHostMessage('webhookUrl'),
      });
    }
    // A name that does not resolve gets the same words: the answer does not tell which internal names exist.
    const unknown = await put(client, { webhookUrl: 'https://nowhere.receiver.example/hook' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toBe(publicHostMessage('webhookUrl'));
    expect((await client.get('/api/alert-settings')).json()).toMatchObject({
      webhookEnabled: false,
      webhookUrl: null,
      updatedAt: null,
    });

    const ok = await put(client, { webhookEnabled: true, webhookUrl: WEBHOOK_URL });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ webhookEnabled: true, webhookUrl: WEBHOOK_URL });
  });

  it('checks the Slack URL on save as it checks the webhook URL', async () => {
    const { client, user } = await signUp(t.app);
    await professional(user.id);
    // Here GovSlack's host resolves to a private address (as a poisoned or split-horizon resolver could make it).
    const refused = await put(client, {
      slackEnabled: true,
      slackWebhookUrl: 'https://hooks.slack-gov.com/services/T0SECRET1/B0SECRET2/abcdefghijklmnopqrstuvwx',
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({ code: 'validation_error', message: publicHostMessage('slackWebhookUrl') });
    expect((await client.get('/api/alert-settings')).json()).toMatchObject({ slackEnabled: false });
    expect((await put(client, { slackEnabled: true, slackWebhookUrl: SLACK_URL })).statusCode).toBe(200);
  });
});

describe('Alert Settings on a server without an SMS provider', () => {
  let bare: TestApp;
  beforeAll(async () => {
    bare = await createTestApp({ env: { DNS_SERVERS: dns.address } });
  });
  afterAll(async () => {
    await bare.close();
  });

  it('says SMS is not available and refuses to turn it on, changing nothing; turning it off stays allowed', async () => {
    const { client, user } = await signUp(bare.app);
    await bare.database.db.execute(sql`UPDATE users SET subscription_plan = 'professional' WHERE id = ${user.id}`);
    await caughtUp(bare);
    expect((await client.get('/api/alert-settings')).json()).toMatchObject({ smsEnabled: false, smsAvailable: false });
    const before = (await client.get('/api/alert-settings')).json();

    const refused = await put(client, { smsEnabled: true, smsNumber: '+14155550123', inboxThreshold: 80 });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({
      code: 'conflict',
      message:
        'SMS alerts are not available: this server has no SMS provider (Twilio) set up. Ask its administrator to configure one.',
    });
    expect((await client.get('/api/alert-settings')).json()).toEqual(before);

    // One left on from before the provider was removed can still be switched off.
    await bare.database.db
      .update(alertSettings)
      .set({ smsEnabled: true, smsNumber: '+14155550123' })
      .where(eq(alertSettings.userId, user.id));
    const off = await put(client, { smsEnabled: false });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json()).toMatchObject({ smsEnabled: false, smsAvailable: false });
  });
});
