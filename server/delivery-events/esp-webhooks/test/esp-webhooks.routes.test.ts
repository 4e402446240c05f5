import { createHmac, generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliveryEvents, emailMetrics } from '../../../platform/db/schema/index';
import { startDnsServer, type TestDnsServer } from '../../../test/dns-server';
import { createTestApp, signUp, type TestApp, type TestClient } from '../../../test/test-app';
import {
  MAILGUN_PERMANENT_SUPPRESSED,
  MAILGUN_TEMPORARY_FAILURE,
  POSTMARK_BOUNCE,
  POSTMARK_DELIVERY,
  SENDGRID_BLOCKED,
  SENDGRID_EVERY_EVENT,
  SENDGRID_SDK_FIXTURE,
  SPARKPOST_BOUNCE,
  SPARKPOST_PING,
  MAILJET_GROUPED,
  BREVO_DELIVERED,
} from './vendor-payloads';

let dns: TestDnsServer;
let t: TestApp;
beforeAll(async () => {
  dns = await startDnsServer({
    'example.com': { MX: [{ exchange: 'mx.example.com', priority: 10 }] },
    'test.com': { MX: [{ exchange: 'mx.test.com', priority: 10 }] },
    'mailjet.com': { MX: [{ exchange: 'mx.mailjet.com', priority: 10 }] },
  });
  t = await createTestApp({ env: { DNS_SERVERS: dns.address } });
});
afterAll(async () => {
  await t?.close();
  await dns?.close();
});

async function account(): Promise<{ client: TestClient; userId: number; token: string }> {
  const { client, user } = await signUp(t.app);
  const res = await client.post('/api/webhook-tokens/generate');
  expect(res.statusCode).toBe(200);
  return { client, userId: user.id, token: res.json().token };
}

function post(provider: string, token: string, body: string, headers: Record<string, string> = {}) {
  return t.app.inject({
    method: 'POST',
    url: `/api/esp-webhooks/${provider}?token=${token}`,
    payload: body,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

const saveSecret = (client: TestClient, provider: string, secret: string) =>
  client.request('PUT', `/api/esp-webhooks/${provider}/secret`, { secret });

async function stored(userId: number) {
  const rows = await t.database.db.select().from(deliveryEvents).where(eq(deliveryEvents.userId, userId));
  return rows
    .map((r) => ({
      source: r.source,
      messageId: r.messageId,
      recipient: r.recipient,
      eventType: r.eventType,
      bounceClass: r.bounceClass,
      enhancedStatus: r.enhancedStatus,
      domain: r.domain,
      recipientDomain: r.recipientDomain,
      sendingIp: r.sendingIp,
    }))
    .sort((a, b) => `${a.messageId}${a.eventType}`.localeCompare(`${b.messageId}${b.eventType}`));
}

/** A P-256 key pair as SendGrid's is: the public half base64 DER (what SendGrid shows), the private half to sign. */
function sendgridKeys() {
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  return { shown: publicKey.export({ type: 'spki', format: 'der' }).toString('base64'), privateKey };
}

describe('SendGrid Signed Event Webhook', () => {
  it('verifies a post SendGrid signed (its SDK’s fixture) and answers an event type it does not use with 200', async () => {
    const { client, userId, token } = await account();
    expect((await saveSecret(client, 'sendgrid', SENDGRID_SDK_FIXTURE.publicKey)).statusCode).toBe(200);
    const headers = {
      'x-twilio-email-event-webhook-signature': SENDGRID_SDK_FIXTURE.signature,
      'x-twilio-email-event-webhook-timestamp': SENDGRID_SDK_FIXTURE.timestamp,
    };
    const res = await post('sendgrid', token, SENDGRID_SDK_FIXTURE.payload, headers);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ accepted: 0, duplicates: 0, ignored: 1, rejected: [] });

    const altered = await post(
      'sendgrid',
      token,
      SENDGRID_SDK_FIXTURE.payload.replace('test_event', 'delivered'),
      headers,
    );
    expect(altered.statusCode).toBe(401);
    expect(altered.json().message).toMatch(/^Invalid SendGrid signature/);
    expect(await stored(userId)).toEqual([]);
  });

  it('stores each documented event type once: delivered, deferred, bounce (hard, or soft when blocked), spam report, dropped', async () => {
    const { client, userId, token } = await account();
    const keys = sendgridKeys();
    await saveSecret(client, 'sendgrid', keys.shown);
    const signed = (body: string) => {
      const timestamp = String(Math.floor(Date.now() / 1000));
      const signature = sign('sha256', Buffer.from(timestamp + body), keys.privateKey).toString('base64');
      return {
        'x-twilio-email-event-webhook-signature': signature,
        'x-twilio-email-event-webhook-timestamp': timestamp,
      };
    };
    const first = await post('sendgrid', token, SENDGRID_EVERY_EVENT, signed(SENDGRID_EVERY_EVENT));
    expect(first.json()).toEqual({ accepted: 5, duplicates: 0, ignored: 6, rejected: [] });
    // SendGrid retries a batch it thinks failed: nothing is counted twice.
    const again = await post('sendgrid', token, SENDGRID_EVERY_EVENT, signed(SENDGRID_EVERY_EVENT));
    expect(again.json()).toEqual({ accepted: 0, duplicates: 5, ignored: 6, rejected: [] });
    expect((await post('sendgrid', token, SENDGRID_BLOCKED, signed(SENDGRID_BLOCKED))).json().accepted).toBe(1);

    const common = { source: 'sendgrid', recipient: 'example@test.com', recipientDomain: 'test.com', domain: null };
    expect(await stored(userId)).toEqual([
      {
        ...common,
        messageId: '14c5d75ce93.dfd.64b469',
        eventType: 'bounced',
        bounceClass: 'soft',
        enhancedStatus: '5.0.0',
        sendingIp: '',
      },
      {
        ...common,
        messageId: 'sg_message_id',
        eventType: 'bounced',
        bounceClass: 'hard',
        enhancedStatus: '5.0.0',
        sendingIp: '',
      },
      {
        ...common,
        messageId: 'sg_message_id',
        eventType: 'complaint',
        bounceClass: null,
        enhancedStatus: null,
        sendingIp: '',
      },
      {
        ...common,
        messageId: 'sg_message_id',
        eventType: 'deferred',
        bounceClass: null,
        enhancedStatus: null,
        sendingIp: '',
      },
      {
        ...common,
        messageId: 'sg_message_id',
        eventType: 'delivered',
        bounceClass: null,
        enhancedStatus: null,
        sendingIp: '',
      },
      // "Bounced Address": SendGrid did not send it. Kept, as dropped.
      {
        ...common,
        messageId: 'sg_message_id',
        eventType: 'dropped',
        bounceClass: null,
        enhancedStatus: null,
        sendingIp: '',
      },
    ]);
  });

  it('refuses an unsigned post with 401 and any post before the key is saved with 403, storing nothing', async () => {
    const { client, userId, token } = await account();
    const before = await post('sendgrid', token, SENDGRID_EVERY_EVENT);
    expect(before.statusCode).toBe(403);
    expect(before.json().message).toMatch(/No SendGrid verification key is saved/);
    await saveSecret(client, 'sendgrid', sendgridKeys().shown);
    const unsigned = await post('sendgrid', token, SENDGRID_EVERY_EVENT);
    expect(unsigned.statusCode).toBe(401);
    expect(unsigned.json().message).toMatch(/^Unsigned SendGrid post/);
    expect(await stored(userId)).toEqual([]);
  });
});

describe('Mailgun webhooks', () => {
  const KEY = 'key-0123456789abcdef0123456789abcdef';
  function signed(eventData: object, options: { timestamp?: number; token?: string; key?: string } = {}) {
    const timestamp = String(options.timestamp ?? Math.floor(Date.now() / 1000));
    const token = options.token ?? randomBytes(25).toString('hex');
    const signature = createHmac('sha256', options.key ?? KEY)
      .update(timestamp + token)
      .digest('hex');
    return JSON.stringify({ signature: { timestamp, token, signature }, 'event-data': eventData });
  }

  it('stores a temporary failure as deferred, with the sending domain and IP, and refuses its replay', async () => {
    const { client, userId, token } = await account();
    expect((await saveSecret(client, 'mailgun', KEY)).statusCode).toBe(200);
    const body = signed(MAILGUN_TEMPORARY_FAILURE);
    const res = await post('mailgun', token, body);
    expect(res.json()).toEqual({ accepted: 1, duplicates: 0, ignored: 0, rejected: [] });
    expect(await stored(userId)).toEqual([
      {
        source: 'mailgun',
        messageId: '20130503182626.18666.16540@sandbox5eefc36737c54ad8a95c7125a83a76ca.mailgun.org',
        recipient: 'alice@example.com',
        eventType: 'deferred',
        bounceClass: null,
        enhancedStatus: '4.2.2',
        domain: 'sandbox5eefc36737c54ad8a95c7125a83a76ca.mailgun.org',
        recipientDomain: 'example.com',
        sendingIp: '209.61.154.250',
      },
    ]);
    const replay = await post('mailgun', token, body);
    expect(replay.statusCode).toBe(401);
    expect(replay.json().message).toMatch(/signature token was used before/);
  });

  it('refuses a wrong signature and a post older than 10 minutes with 401, storing nothing', async () => {
    const { client, userId, token } = await account();
    await saveSecret(client, 'mailgun', KEY);
    const wrong = await post('mailgun', token, signed(MAILGUN_TEMPORARY_FAILURE, { key: 'key-not-the-saved-one' }));
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().message).toMatch(/^Invalid Mailgun signature/);
    const old = signed(MAILGUN_TEMPORARY_FAILURE, { timestamp: Math.floor(Date.now() / 1000) - 11 * 60 });
    const stale = await post('mailgun', token, old);
    expect(stale.statusCode).toBe(401);
    expect(stale.json().message).toMatch(/more than 10 minutes from now/);
    expect(await stored(userId)).toEqual([]);
  });

  it('keeps a suppressed address (never sent) as dropped, never as a sent message or a bounce', async () => {
    const { client, userId, token } = await account();
    await saveSecret(client, 'mailgun', KEY);
    const res = await post('mailgun', token, signed(MAILGUN_PERMANENT_SUPPRESSED));
    expect(res.json()).toEqual({ accepted: 1, duplicates: 0, ignored: 0, rejected: [] });
    expect(await stored(userId)).toEqual([
      {
        source: 'mailgun',
        messageId: '20130503182626.18666.16540@sandbox5eefc36737c54ad8a95c7125a83a76ca.mailgun.org',
        recipient: 'alice@example.com',
        eventType: 'dropped',
        bounceClass: null,
        enhancedStatus: null,
        domain: 'sandbox5eefc36737c54ad8a95c7125a83a76ca.mailgun.org',
        recipientDomain: 'example.com',
        sendingIp: '',
      },
    ]);
    const [row] = await t.database.db.select().from(deliveryEvents).where(eq(deliveryEvents.userId, userId));
    expect(row.smtpResponse).toBe('Not delivering to previously bounced address');
    expect(await t.database.db.select().from(emailMetrics).where(eq(emailMetrics.userId, userId))).toEqual([]);

    // The Integrations screen counts what Mailgun did not send in the last 30 days (the sample above is from 2018).
    const today = { ...MAILGUN_PERMANENT_SUPPRESSED, timestamp: Date.now() / 1000, recipient: 'carol@example.com' };
    expect((await post('mailgun', token, signed(today))).json().accepted).toBe(1);
    const receivers = (await client.get('/api/esp-webhooks')).json() as {
      provider: string;
      droppedLast30Days: number;
    }[];
    expect(receivers.find((r) => r.provider === 'mailgun')?.droppedLast30Days).toBe(1);
    expect(receivers.find((r) => r.provider === 'sendgrid')?.droppedLast30Days).toBe(0);
  });
});

describe('Postmark webhooks', () => {
  it('takes the secret URL alone, storing a hard bounce and a delivery', async () => {
    const { userId, token } = await account();
    expect((await post('postmark', token, POSTMARK_BOUNCE)).json().accepted).toBe(1);
    expect((await post('postmark', token, POSTMARK_DELIVERY)).json().accepted).toBe(1);
    expect(await stored(userId)).toEqual([
      {
        source: 'postmark',
        messageId: '883953f4-6105-42a2-a16a-77a8eac79483',
        recipient: 'john@example.com',
        eventType: 'bounced',
        bounceClass: 'hard',
        enhancedStatus: null,
        domain: 'example.com',
        recipientDomain: 'example.com',
        sendingIp: '',
      },
      {
        source: 'postmark',
        messageId: 'a94dfe84-8ab9-43cf-8a1c-ac234c296e25',
        recipient: 'recipeint@example.com',
        eventType: 'delivered',
        bounceClass: null,
        enhancedStatus: '2.0.0',
        domain: null,
        recipientDomain: 'example.com',
        sendingIp: '',
      },
    ]);
  });

  it('once credentials are saved, refuses a post without them with 401 and takes one with them', async () => {
    const { client, userId, token } = await account();
    expect((await saveSecret(client, 'postmark', 'inboxpulse:s3cret-pass')).statusCode).toBe(200);
    const without = await post('postmark', token, POSTMARK_BOUNCE);
    expect(without.statusCode).toBe(401);
    expect(without.json().message).toMatch(/^Wrong or missing basic-auth credentials/);
    expect(await stored(userId)).toEqual([]);
    const authorization = `Basic ${Buffer.from('inboxpulse:s3cret-pass').toString('base64')}`;
    expect((await post('postmark', token, POSTMARK_BOUNCE, { authorization })).json().accepted).toBe(1);
  });
});

describe('SparkPost webhooks', () => {
  it('answers the ping with 200 and stores the sample bounce with its sending IP', async () => {
    const { userId, token } = await account();
    expect((await post('sparkpost', token, SPARKPOST_PING)).json()).toEqual({
      accepted: 0,
      duplicates: 0,
      ignored: 1,
      rejected: [],
    });
    expect((await post('sparkpost', token, SPARKPOST_BOUNCE)).json().accepted).toBe(1);
    expect(await stored(userId)).toEqual([
      {
        source: 'sparkpost',
        messageId: '000443ee14578172be22',
        recipient: 'recipient@example.com',
        eventType: 'bounced',
        bounceClass: 'hard',
        enhancedStatus: null,
        domain: 'example.com',
        recipientDomain: 'example.com',
        sendingIp: '127.0.0.1',
      },
    ]);
  });

  it('once credentials are saved, refuses a post without them with 401', async () => {
    const { client, userId, token } = await account();
    expect((await saveSecret(client, 'sparkpost', 'sparky:hook-pass')).statusCode).toBe(200);
    const without = await post('sparkpost', token, SPARKPOST_BOUNCE);
    expect(without.statusCode).toBe(401);
    expect(without.json().message).toBe(
      'Wrong or missing basic-auth credentials: give SparkPost the ones saved in InboxPulse',
    );
    expect(await stored(userId)).toEqual([]);
    const authorization = `Basic ${Buffer.from('sparky:hook-pass').toString('base64')}`;
    expect((await post('sparkpost', token, SPARKPOST_BOUNCE, { authorization })).json().accepted).toBe(1);
  });
});

describe('Mailjet and Brevo webhooks', () => {
  it('stores Mailjet’s sent, bounce and spam events, and a message it blocked before sending as dropped', async () => {
    const { userId, token } = await account();
    expect((await post('mailjet', token, MAILJET_GROUPED)).json()).toEqual({
      accepted: 4,
      duplicates: 0,
      ignored: 0,
      rejected: [],
    });
    const common = {
      source: 'mailjet',
      messageId: '1ab23cd4-e567-8901-2345-6789f0gh1i2j',
      domain: null,
      sendingIp: '',
    };
    expect(await stored(userId)).toEqual([
      {
        ...common,
        recipient: 'bounce@mailjet.com',
        eventType: 'bounced',
        bounceClass: 'hard',
        enhancedStatus: null,
        recipientDomain: 'mailjet.com',
      },
      {
        ...common,
        recipient: 'bounce@mailjet.com',
        eventType: 'complaint',
        bounceClass: null,
        enhancedStatus: null,
        recipientDomain: 'mailjet.com',
      },
      {
        ...common,
        recipient: 'api@mailjet.com',
        eventType: 'delivered',
        bounceClass: null,
        enhancedStatus: '2.0.0',
        recipientDomain: 'mailjet.com',
      },
      {
        ...common,
        recipient: 'bounce@mailjet.com',
        eventType: 'dropped',
        bounceClass: null,
        enhancedStatus: null,
        recipientDomain: 'mailjet.com',
      },
    ]);
  });

  it('stores Brevo’s delivered event with its sending IP, and checks saved credentials', async () => {
    const { client, userId, token } = await account();
    expect((await post('brevo', token, BREVO_DELIVERED)).json().accepted).toBe(1);
    expect(await stored(userId)).toEqual([
      {
        source: 'brevo',
        messageId: '<xxxxxxxxxxxx.xxxxxxxxx@domain.com>',
        recipient: 'example@example.com',
        eventType: 'delivered',
        bounceClass: null,
        enhancedStatus: null,
        domain: null,
        recipientDomain: 'example.com',
        sendingIp: '185.41.28.109',
      },
    ]);
    await saveSecret(client, 'brevo', 'brevo:hook-pass');
    expect((await post('brevo', token, BREVO_DELIVERED)).statusCode).toBe(401);
  });
});

describe('ESP webhook settings', () => {
  it('refuses a wrong secret with what to copy instead, and shows each receiver without its secret', async () => {
    const { client, token } = await account();
    const bad = await saveSecret(client, 'sendgrid', 'not-a-key');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/^That is not a SendGrid verification key/);
    expect((await saveSecret(client, 'ses', 'anything')).json().message).toMatch(/^Amazon SES needs no secret/);
    expect((await saveSecret(client, 'postmark', 'no-colon')).statusCode).toBe(400);
    expect((await saveSecret(client, 'unknown', 'x')).statusCode).toBe(400);
    expect((await saveSecret(client, 'mailgun', 'x'.repeat(2000))).statusCode).toBe(400);

    await saveSecret(client, 'mailgun', 'key-0123456789abcdef0123456789abcdef');
    await post('postmark', token, POSTMARK_DELIVERY);
    const list = await client.get('/api/esp-webhooks');
    expect(list.statusCode).toBe(200);
    const byProvider = Object.fromEntries(list.json().map((p: { provider: string }) => [p.provider, p]));
    expect(byProvider.mailgun).toMatchObject({ path: '/api/esp-webhooks/mailgun', secretSet: true, lastEventAt: null });
    expect(byProvider.postmark).toMatchObject({ secretSet: false, secretRequired: false });
    expect(Date.parse(byProvider.postmark.lastEventAt)).toBeGreaterThan(Date.now() - 60_000);
    expect(JSON.stringify(list.json())).not.toContain('0123456789abcdef');

    // Another account sees its own receivers only; no session, no list.
    const other = await signUp(t.app);
    const theirs = await other.client.get('/api/esp-webhooks');
    expect(theirs.json().every((p: { secretSet: boolean; lastEventAt: null }) => !p.secretSet && !p.lastEventAt)).toBe(
      true,
    );
    expect((await t.app.inject({ method: 'GET', url: '/api/esp-webhooks' })).statusCode).toBe(401);

    expect((await client.delete('/api/esp-webhooks/mailgun/secret')).statusCode).toBe(200);
    const after = await client.get('/api/esp-webhooks');
    expect(after.json().find((p: { provider: string }) => p.provider === 'mailgun').secretSet).toBe(false);
  });

  it('refuses a post without the account’s webhook token before reading it', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/esp-webhooks/postmark',
      payload: POSTMARK_BOUNCE,
      headers: { 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toMatch(/^Missing webhook token/);
  });
});
