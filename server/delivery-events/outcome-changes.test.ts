import { daysAgo, utcDay } from '@contracts/utc-day';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliveryEvents, emailMetrics } from '../platform/db/schema/index';
import { startDnsServer, type TestDnsServer } from '../test/dns-server';
import { createTestApp, signUp, type TestApp } from '../test/test-app';
import { listDomainEventDays } from '../insights/timeline-figures';
import { countEvents } from './delivery-events.repo';

let dns: TestDnsServer;
let t: TestApp;
beforeAll(async () => {
  dns = await startDnsServer({ 'example.com': { MX: [{ exchange: 'mx.example.com', priority: 10 }] } });
  t = await createTestApp({ env: { DNS_SERVERS: dns.address } });
});
afterAll(async () => {
  await t?.close();
  await dns?.close();
});

async function postalToken(): Promise<{ userId: number; token: string }> {
  const { client, user } = await signUp(t.app);
  const res = await client.post('/api/webhook-tokens/generate');
  expect(res.statusCode).toBe(200);
  return { userId: user.id, token: res.json().token };
}

// Postal's webhook requests verbatim from its documentation (postalserver/docs content/4.developer/4.webhooks.md,
// https://docs.postalserver.io/developer/webhooks): the envelope, a MessageSent payload and a MessageBounced one,
// whose `original_message` is the message sent before. Only the times are moved to the days of the test.
const message = {
  id: 12345,
  token: 'abcdef123',
  direction: 'outgoing',
  message_id: '5817a64332f44_4ec93ff59e79d154565eb@app34.mail',
  to: 'test@example.com',
  from: 'sales@awesomeapp.com',
  subject: 'Welcome to AwesomeApp',
  timestamp: 1477945177.12994,
  spam_status: 'NotSpam',
  tag: 'welcome',
};
const seconds = (at: Date) => at.getTime() / 1000;
const sent = (at: Date) => ({
  event: 'MessageSent',
  timestamp: seconds(at),
  uuid: '820b47a4-4dfd-42e4-ae6a-1e5bed5a33fd',
  payload: {
    status: 'Sent',
    details: 'Message sent by SMTP to aspmx.l.google.com (2a00:1450:400c:c0b::1b) (from 2a00:67a0:a:15::2)',
    output: '250 2.0.0 OK 1477944899 ly2si31746747wjb.95 - gsmtp',
    time: 0.22,
    sent_with_ssl: true,
    timestamp: seconds(at),
    message,
  },
});
const bounced = (at: Date) => ({
  event: 'MessageBounced',
  timestamp: seconds(at),
  uuid: '820b47a4-4dfd-42e4-ae6a-1e5bed5a33fe',
  payload: {
    original_message: message,
    bounce: {
      id: 12347,
      token: 'abcdef124',
      direction: 'incoming',
      message_id: '5817a64332f44_4ec93ff59e79d154565eb@someserver.com',
      to: 'abcde@psrp.postal.yourdomain.com',
      from: 'postmaster@someserver.com',
      subject: 'Delivery Error',
      timestamp: seconds(at),
      spam_status: 'NotSpam',
      tag: null,
    },
  },
});

const postPostal = (token: string, payload: object) =>
  t.app.inject({ method: 'POST', url: `/api/webhooks/postal?token=${token}`, payload });

/** The user's day figures, as email_metrics holds them (per source, day, mailbox provider and IP). */
async function figures(userId: number) {
  const rows = await t.database.db.select().from(emailMetrics).where(eq(emailMetrics.userId, userId));
  return rows.map((r) => ({
    date: r.date,
    sent: r.emailsSent,
    delivered: r.delivered,
    bounced: r.bounced,
    hard: r.hardBounces,
    soft: r.softBounces,
    ip: r.sendingIp,
  }));
}

const storedTypes = async (userId: number) =>
  (await t.database.db.select().from(deliveryEvents).where(eq(deliveryEvents.userId, userId)))
    .map((e) => e.eventType)
    .sort();

const twoDaysAgo = new Date(daysAgo(2).getTime() + 10 * 3600 * 1000);
const yesterday = new Date(daysAgo(1).getTime() + 9 * 3600 * 1000);

describe('a message whose outcome changes (delivered, then bounced)', () => {
  it('is sent once: a bounce after the delivery moves it from delivered to bounced on the day it was sent', async () => {
    const { userId, token } = await postalToken();
    expect((await postPostal(token, sent(twoDaysAgo))).json()).toEqual({
      accepted: 1,
      duplicates: 0,
      ignored: 0,
      rejected: [],
    });
    const sentDay = { date: utcDay(twoDaysAgo), sent: 1, hard: 0, soft: 0, ip: '2a00:67a0:a:15::2' };
    expect(await figures(userId)).toEqual([{ ...sentDay, delivered: 1, bounced: 0 }]);

    // The bounce comes the next day, from the receiver's postmaster: the message's outcome changes where it was counted.
    expect((await postPostal(token, bounced(yesterday))).json()).toMatchObject({ accepted: 1, duplicates: 0 });
    expect(await figures(userId)).toEqual([{ ...sentDay, delivered: 0, bounced: 1, hard: 1 }]);
    // Both events stay: the bounce is on the timeline as what happened to the message.
    expect(await storedTypes(userId)).toEqual(['bounced', 'delivered']);
    // Figures read from the events (a domain's status, the Postfix statistics) count the message by its latest outcome.
    expect(await countEvents(t.database.db, userId, daysAgo(7))).toMatchObject({
      delivered: 0,
      bounced: 1,
      hardBounces: 1,
    });
    // So does the domain's timeline, which reads the events by the day they happened: one message, bounced.
    const days = await listDomainEventDays(t.database.db, userId, 'awesomeapp.com', {
      since: daysAgo(7),
      until: new Date(),
    });
    const total = (key: 'sent' | 'delivered' | 'bounced') => days.reduce((sum, day) => sum + day[key], 0);
    expect({ sent: total('sent'), delivered: total('delivered'), bounced: total('bounced') }).toEqual({
      sent: 1,
      delivered: 0,
      bounced: 1,
    });
    expect(days.find((day) => day.bounced === 1)?.date).toBe(utcDay(yesterday));

    // The same bounce posted again changes nothing.
    expect((await postPostal(token, bounced(yesterday))).json()).toMatchObject({ accepted: 0, duplicates: 1 });
    expect(await figures(userId)).toEqual([{ ...sentDay, delivered: 0, bounced: 1, hard: 1 }]);
  });

  it('is counted once with its latest outcome when both arrive in one batch, and a late older outcome changes nothing', async () => {
    const inOneBatch = await postalToken();
    const batch = await t.app.inject({
      method: 'POST',
      url: `/api/webhooks/postal?token=${inOneBatch.token}`,
      payload: [bounced(yesterday), sent(twoDaysAgo)],
    });
    expect(batch.json()).toMatchObject({ accepted: 2 });
    expect(await figures(inOneBatch.userId)).toEqual([
      { date: utcDay(twoDaysAgo), sent: 1, delivered: 0, bounced: 1, hard: 1, soft: 0, ip: '2a00:67a0:a:15::2' },
    ]);

    // The bounce arrives first (webhooks are not always in order); the delivery before it, posted later, is stored
    // but the message stays bounced and is not sent twice.
    const outOfOrder = await postalToken();
    await postPostal(outOfOrder.token, bounced(yesterday));
    const bounceFirst = [{ date: utcDay(yesterday), sent: 1, delivered: 0, bounced: 1, hard: 1, soft: 0, ip: '' }];
    expect(await figures(outOfOrder.userId)).toEqual(bounceFirst);
    expect((await postPostal(outOfOrder.token, sent(twoDaysAgo))).json()).toMatchObject({ accepted: 1 });
    expect(await figures(outOfOrder.userId)).toEqual(bounceFirst);
    expect(await storedTypes(outOfOrder.userId)).toEqual(['bounced', 'delivered']);
  });
});
