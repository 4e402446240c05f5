import { daysAgo, utcDay } from '@contracts/utc-day';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliveryEvents, domains, emailMetrics, ipAddresses, webhookDeliveries } from '../platform/db/schema/index';
import { runReputationCheckNow } from '../reputation/reputation-run.test-support';
import { startDnsServer, type TestDnsServer } from '../test/dns-server';
import { createTestApp, signUp, type TestApp, type TestClient } from '../test/test-app';

let dns: TestDnsServer;
let t: TestApp;
beforeAll(async () => {
  // The recipients' domains with their providers' real MX hosts; the webhook receiver's host is public.
  dns = await startDnsServer({
    'gmail.com': { MX: [{ exchange: 'gmail-smtp-in.l.google.com', priority: 5 }] },
    'yahoo.com': { MX: [{ exchange: 'mta5.am0.yahoodns.net', priority: 1 }] },
    'brand.example': { MX: [{ exchange: 'aspmx.l.google.com', priority: 1 }] },
    'example.org': { MX: [{ exchange: 'mx.example.org', priority: 10 }] },
    'hooks.example.com': { A: ['93.184.215.14'] },
  });
  t = await createTestApp({ env: { DNS_SERVERS: dns.address } });
});
afterAll(async () => {
  await t?.close();
  await dns?.close();
});

const TODAY = utcDay();
const nowSeconds = () => Math.floor(Date.now() / 1000);
/** A syslog time of a moment ago (the log's zone is UTC here). */
function syslogTime(secondsAgo = 60): string {
  const d = new Date(Date.now() - secondsAgo * 1000);
  const month = d.toLocaleString('en-US', { month: 'short', timeZone: 'UTC' });
  return `${month} ${String(d.getUTCDate()).padStart(2, ' ')} ${d.toISOString().slice(11, 19)}`;
}

async function userWithToken(): Promise<{ client: TestClient; userId: number; token: string }> {
  const { client, user } = await signUp(t.app);
  const res = await client.post('/api/webhook-tokens/generate');
  expect(res.statusCode).toBe(200);
  return { client, userId: user.id, token: res.json().token };
}

function post(url: string, payload: string | object, headers: Record<string, string>) {
  const contentType = typeof payload === 'string' ? 'text/plain' : 'application/json';
  return t.app.inject({ method: 'POST', url, payload, headers: { 'content-type': contentType, ...headers } });
}

async function storedEvents(userId: number) {
  return t.database.db
    .select()
    .from(deliveryEvents)
    .where(eq(deliveryEvents.userId, userId))
    .orderBy(deliveryEvents.recipient, deliveryEvents.eventType);
}
async function metricRows(userId: number) {
  return t.database.db
    .select()
    .from(emailMetrics)
    .where(eq(emailMetrics.userId, userId))
    .orderBy(emailMetrics.provider, emailMetrics.mailboxProvider, emailMetrics.sendingIp);
}
async function jobsFor(name: string, key: string, value: number): Promise<number> {
  const { rows } = await t.database.pool.query<{ n: string }>(
    `select count(*) as n from pgboss.job where name = $1 and (data->>$2)::int = $3`,
    [name, key, value],
  );
  return Number(rows[0].n);
}

function postfixBatch(queueId: string) {
  return [
    `${syslogTime(90)} mx1 postfix/qmgr[1999]: ${queueId}: from=<news@mail.example.com>, size=4211, nrcpt=3 (queue active)`,
    `${syslogTime(80)} mx1 postfix/smtp[2120]: ${queueId}: to=<ann@gmail.com>, relay=gmail-smtp-in.l.google.com[142.250.102.27]:25, delay=1.2, delays=0.1/0.01/0.5/0.59, dsn=2.0.0, status=sent (250 2.0.0 OK  1705314225 d2e1a72fcca58-7d5f5b2c1b0si1234567pfb.12 - gsmtp)`,
    `${syslogTime(70)} mx1 postfix/smtp[2121]: ${queueId}: to=<bob@example.org>, relay=mx.example.org[192.0.2.25]:25, delay=2.1, delays=0.1/0.01/1.5/0.49, dsn=5.1.1, status=bounced (host mx.example.org[192.0.2.25] said: 550 5.1.1 <bob@example.org>: Recipient address rejected: User unknown in virtual mailbox table (in reply to RCPT TO command))`,
    `${syslogTime(60)} mx1 postfix/smtp[2122]: ${queueId}: to=<carol@yahoo.com>, relay=mta7.am0.yahoodns.net[67.195.204.72]:25, delay=3.3, delays=0.1/0.01/3.1/0.09, dsn=4.7.0, status=deferred (host mta7.am0.yahoodns.net[67.195.204.72] said: 421 4.7.0 [TSS04] Messages from 203.0.113.10 temporarily deferred due to unexpected volume or user complaints (in reply to MAIL FROM command))`,
  ].join('\n');
}

describe('MTA webhooks: authentication', () => {
  it('refuses a missing, a wrong and a revoked token with 401 and says what to send', async () => {
    const { client, token } = await userWithToken();
    const body = postfixBatch('4TfK2Q1xYzz9');
    const missing = await post('/api/webhooks/postfix', body, {});
    expect(missing.statusCode).toBe(401);
    expect(missing.json().message).toMatch(/Missing webhook token: send "Authorization: Bearer iwt_…"/);
    const wrong = await post('/api/webhooks/postfix', body, { authorization: `Bearer iwt_${'x'.repeat(43)}` });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ code: 'unauthorized', message: expect.stringMatching(/^Invalid webhook token/) });
    const apiKey = await post('/api/webhooks/kumo', {}, { authorization: `Bearer ipk_${'x'.repeat(43)}` });
    expect(apiKey.json().message).toMatch(/takes your webhook token/);

    expect((await client.delete('/api/webhook-tokens')).statusCode).toBe(200);
    const revoked = await post('/api/webhooks/postfix', body, { authorization: `Bearer ${token}` });
    expect(revoked.statusCode).toBe(401);
    expect(revoked.json().message).toMatch(/^Invalid webhook token: it was revoked or regenerated/);
  });

  it('takes the token as a bearer header, an X-Webhook-Token header or a token query parameter', async () => {
    const { userId, token } = await userWithToken();
    const body = postfixBatch('4TfK2Q1xYzz8');
    expect((await post('/api/webhooks/postfix', body, { 'x-webhook-token': token })).statusCode).toBe(200);
    expect((await post(`/api/webhooks/postfix?token=${token}`, body, {})).json()).toEqual({
      accepted: 0,
      duplicates: 3,
      ignored: 1,
      rejected: [],
    });
    expect(await storedEvents(userId)).toHaveLength(3);
  });

  it('answers 429 to a wrong token sent again and again from one address, and never refuses a valid token', async () => {
    const { token } = await userWithToken();
    const ip = '198.51.100.77';
    const from = (bearer: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/webhooks/postfix',
        remoteAddress: ip,
        payload: postfixBatch('4TfK2Q1xNAT1'),
        headers: { 'content-type': 'text/plain', authorization: `Bearer ${bearer}` },
      });
    const revoked = 'iwt_revoked-token-an-mta-still-sends';
    for (let i = 0; i < 60; i++) expect((await from(revoked)).statusCode).toBe(401);
    const refused = await from(revoked);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().message).toMatch(/^Too many requests with this wrong webhook token from this address/);
    // Another account's valid token from the same address (a shared NAT) is served, and another wrong token is
    // told it is wrong, not made to wait.
    expect((await from(token)).statusCode).toBe(200);
    expect((await from('iwt_some-other-wrong-token')).statusCode).toBe(401);
  });
});

describe('MTA webhooks: each MTA’s batch', () => {
  it('Postfix: stores the events, adds them to email_metrics per day, mailbox provider and IP, and a retried batch changes nothing', async () => {
    const { userId, token } = await userWithToken();
    const auth = { authorization: `Bearer ${token}` };
    const res = await post('/api/webhooks/postfix', postfixBatch('4TfK2Q1xYzz7'), auth);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ accepted: 3, duplicates: 0, ignored: 1, rejected: [] });
    const events = await storedEvents(userId);
    expect(
      events.map((e) => [
        e.source,
        e.messageId,
        e.recipient,
        e.eventType,
        e.bounceClass,
        e.enhancedStatus,
        e.mailboxProvider,
        e.domain,
      ]),
    ).toEqual([
      ['postfix', '4TfK2Q1xYzz7', 'ann@gmail.com', 'delivered', null, '2.0.0', 'gmail', 'mail.example.com'],
      ['postfix', '4TfK2Q1xYzz7', 'bob@example.org', 'bounced', 'hard', '5.1.1', 'other', 'mail.example.com'],
      ['postfix', '4TfK2Q1xYzz7', 'carol@yahoo.com', 'deferred', null, '4.7.0', 'yahoo', 'mail.example.com'],
    ]);
    const metricsBefore = await metricRows(userId);
    expect(
      metricsBefore.map((m) => [
        m.provider,
        m.date,
        m.mailboxProvider,
        m.emailsSent,
        m.delivered,
        m.bounced,
        m.hardBounces,
        m.softBounces,
        m.deferred,
      ]),
    ).toEqual([
      ['postfix', TODAY, 'gmail', 1, 1, 0, 0, 0, 0],
      ['postfix', TODAY, 'other', 1, 0, 1, 1, 0, 0],
      ['postfix', TODAY, 'yahoo', 0, 0, 0, 0, 0, 1],
    ]);

    const again = await post('/api/webhooks/postfix', postfixBatch('4TfK2Q1xYzz7'), auth);
    expect(again.json()).toEqual({ accepted: 0, duplicates: 3, ignored: 1, rejected: [] });
    expect(await storedEvents(userId)).toHaveLength(3);
    expect(await metricRows(userId)).toEqual(metricsBefore);
  });

  it('PowerMTA: reads the accounting CSV sent as text/csv', async () => {
    const { userId, token } = await userWithToken();
    const t0 = new Date(Date.now() - 120_000).toISOString().replace('T', ' ').slice(0, 19);
    const csv = [
      'type,timeLogged,timeQueued,orig,rcpt,dsnAction,dsnStatus,dsnDiag,bounceCat,dlvSourceIp,jobId,header_Message-Id',
      `d,${t0}+0000,${t0}+0000,news@mail.example.com,ann@gmail.com,relayed,2.0.0 (success),smtp;250 2.0.0 OK,,203.0.113.10,spring,<m1@mail.example.com>`,
      `b,${t0}+0000,${t0}+0000,news@mail.example.com,bob@example.org,failed,5.1.1 (bad destination mailbox address),"smtp;550 5.1.1 <bob@example.org>: User unknown",bad-mailbox,203.0.113.10,spring,<m1@mail.example.com>`,
      `t,${t0}+0000,${t0}+0000,news@mail.example.com,carol@yahoo.com,delayed,4.7.0,"smtp;421 4.7.0 [TSS04] deferred due to unexpected volume",policy-related,203.0.113.11,spring,<m1@mail.example.com>`,
    ].join('\r\n');
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/webhooks/powermta',
      payload: csv,
      headers: { 'content-type': 'text/csv', authorization: `Bearer ${token}` },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ accepted: 3, duplicates: 0, ignored: 0, rejected: [] });
    const metrics = await metricRows(userId);
    expect(
      metrics.map((m) => [
        m.provider,
        m.mailboxProvider,
        m.sendingIp,
        m.emailsSent,
        m.delivered,
        m.hardBounces,
        m.deferred,
      ]),
    ).toEqual([
      ['powermta', 'gmail', '203.0.113.10', 1, 1, 0, 0],
      ['powermta', 'other', '203.0.113.10', 1, 0, 1, 0],
      ['powermta', 'yahoo', '203.0.113.11', 0, 0, 0, 1],
    ]);
  });

  it('KumoMTA (NDJSON), Halon (NDJSON), Postal, GreenArrow (form fields) and SMTP2GO: each one’s native records', async () => {
    const { userId, token } = await userWithToken();
    const auth = { authorization: `Bearer ${token}` };
    const ts = nowSeconds() - 30;
    const kumo = [
      {
        type: 'Delivery',
        id: 'k1',
        sender: 'news@mail.example.com',
        recipient: 'ann@gmail.com',
        response: { code: 250, enhanced_code: { class: 2, subject: 0, detail: 0 }, content: 'OK', command: '.' },
        source_address: { address: '203.0.113.20:41000' },
        timestamp: ts,
        created: ts - 1,
      },
      {
        type: 'Bounce',
        id: 'k2',
        sender: 'news@mail.example.com',
        recipient: 'bob@example.org',
        response: {
          code: 550,
          enhanced_code: { class: 5, subject: 1, detail: 1 },
          content: 'User unknown',
          command: 'RCPT TO',
        },
        timestamp: ts,
      },
      {
        type: 'Reception',
        id: 'k3',
        sender: 'news@mail.example.com',
        recipient: 'x@example.org',
        response: { code: 250, enhanced_code: null, content: '', command: null },
        timestamp: ts,
      },
    ];
    const kumoRes = await t.app.inject({
      method: 'POST',
      url: '/api/webhooks/kumo',
      payload: kumo.map((r) => JSON.stringify(r)).join('\n'),
      headers: { 'content-type': 'application/x-ndjson', ...auth },
    });
    expect(kumoRes.json()).toEqual({ accepted: 2, duplicates: 0, ignored: 1, rejected: [] });

    const halon = {
      type: 'delivery',
      time: (ts + 1) * 1000,
      message: {
        id: { transaction: 'h-tx-1', queue: 1 },
        sender: 'news@mail.example.com',
        recipient: 'dan@brand.example',
      },
      attempt: {
        result: { code: 250, enhanced: [2, 0, 0], reason: ['Ok'] },
        connection: { localip: '203.0.113.21' },
        duration: 0.5,
      },
    };
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/webhooks/halon',
          payload: `${JSON.stringify(halon)}\n`,
          headers: { 'content-type': 'application/x-ndjson', ...auth },
        })
      ).json(),
    ).toMatchObject({ accepted: 1 });

    const postal = {
      event: 'MessageDeliveryFailed',
      timestamp: ts,
      uuid: 'u1',
      payload: {
        status: 'HardFail',
        details: 'Permanent SMTP delivery error (from 185.22.208.10)',
        output: '550 5.1.1 User unknown',
        timestamp: ts,
        message: {
          id: 1,
          token: 't',
          direction: 'outgoing',
          message_id: 'p1@app',
          to: 'eve@example.org',
          from: 'sales@awesomeapp.com',
        },
      },
    };
    expect((await post(`/api/webhooks/postal?token=${token}`, postal, {})).json()).toMatchObject({ accepted: 1 });

    const greenarrow = new URLSearchParams({
      event_type: 'scomp',
      event_time: String(ts),
      email: 'ann@gmail.com',
      listid: 'a1',
      sendid: 'spring',
    }).toString();
    const gaRes = await t.app.inject({
      method: 'POST',
      url: `/api/webhooks/greenarrow?token=${token}`,
      payload: greenarrow,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(gaRes.json()).toEqual({ accepted: 1, duplicates: 0, ignored: 0, rejected: [] });

    const smtp2go = new URLSearchParams({
      event: 'bounce',
      time: new Date(ts * 1000).toISOString(),
      rcpt: 'frank@yahoo.com',
      email_id: 's2g-1',
      bounce: 'soft',
      message: '452 4.2.2 Mailbox full',
    }).toString();
    const s2gRes = await t.app.inject({
      method: 'POST',
      url: `/api/webhooks/smtp2go/main-account?token=${token}`,
      payload: smtp2go,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(s2gRes.json()).toEqual({ accepted: 1, duplicates: 0, ignored: 0, rejected: [] });
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: `/api/webhooks/smtp2go/bad%20name?token=${token}`,
          payload: smtp2go,
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        })
      ).statusCode,
    ).toBe(400);

    const events = await storedEvents(userId);
    expect(
      events.map((e) => [e.source, e.recipient, e.eventType, e.bounceClass, e.mailboxProvider, e.sendingIp]),
    ).toEqual([
      ['greenarrow', 'ann@gmail.com', 'complaint', null, 'gmail', ''],
      ['kumo', 'ann@gmail.com', 'delivered', null, 'gmail', '203.0.113.20'],
      ['kumo', 'bob@example.org', 'bounced', 'hard', 'other', ''],
      ['halon', 'dan@brand.example', 'delivered', null, 'gmail', '203.0.113.21'],
      ['postal', 'eve@example.org', 'bounced', 'hard', 'other', '185.22.208.10'],
      ['smtp2go', 'frank@yahoo.com', 'bounced', 'soft', 'yahoo', ''],
    ]);
  });
});

describe('MTA webhooks: what senders post that is not one event', () => {
  it('answers 200 to an event InboxPulse does not count (an SMTP2GO open), so the sender does not retry it', async () => {
    const { userId, token } = await userWithToken();
    const opened = new URLSearchParams({
      event: 'opened',
      time: new Date().toISOString(),
      rcpt: 'ann@gmail.com',
      email_id: 's2g-open-1',
      'user-agent': 'Mozilla/5.0',
    }).toString();
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/webhooks/smtp2go/main-account?token=${token}`,
      payload: opened,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ accepted: 0, duplicates: 0, ignored: 1, rejected: [] });
    expect(await storedEvents(userId)).toEqual([]);
  });

  it('stores one event per recipient of a KumoMTA record that names several, and counts each as sent', async () => {
    const { userId, token } = await userWithToken();
    const ts = nowSeconds() - 30;
    const record = {
      type: 'Delivery',
      id: 'kb1',
      sender: 'news@mail.example.com',
      recipient: ['ann@gmail.com', 'cat@gmail.com'],
      response: { code: 250, enhanced_code: { class: 2, subject: 0, detail: 0 }, content: 'OK', command: '.' },
      timestamp: ts,
      created: ts - 1,
    };
    const res = await post('/api/webhooks/kumo', [record], { authorization: `Bearer ${token}` });
    expect(res.json()).toEqual({ accepted: 2, duplicates: 0, ignored: 0, rejected: [] });
    expect((await storedEvents(userId)).map((e) => e.recipient)).toEqual(['ann@gmail.com', 'cat@gmail.com']);
    expect((await metricRows(userId)).map((m) => [m.emailsSent, m.delivered])).toEqual([[2, 2]]);
  });
});

describe('MTA webhooks: bad batches', () => {
  it('answers malformed rows by index and keeps the good ones; a batch with nothing readable is a 400', async () => {
    const { userId, token } = await userWithToken();
    const auth = { authorization: `Bearer ${token}` };
    const ts = nowSeconds() - 10;
    const lines = [
      JSON.stringify({
        type: 'Delivery',
        id: 'g1',
        recipient: 'ann@gmail.com',
        response: { code: 250, content: 'OK' },
        timestamp: ts,
      }),
      '{"type":"Delivery", oops',
      JSON.stringify({ type: 'Delivery', id: 'g2', recipient: 'nobody', timestamp: ts }),
      JSON.stringify({
        type: 'Bounce',
        id: 'g3',
        recipient: 'bob@example.org',
        response: { code: 550, content: 'no' },
        timestamp: ts,
      }),
    ].join('\n');
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/webhooks/kumo',
      payload: lines,
      headers: { 'content-type': 'application/x-ndjson', ...auth },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      accepted: 2,
      duplicates: 0,
      ignored: 0,
      rejected: [
        { index: 1, message: 'Not valid JSON' },
        { index: 2, message: 'Recipient is not an e-mail address: nobody' },
      ],
    });
    expect(await storedEvents(userId)).toHaveLength(2);

    // NUL and other control characters never reach PostgreSQL (its text refuses NUL): refused or cleaned.
    const nul = [
      { type: 'Delivery', id: 'g4\u0000', recipient: 'ann@gmail.com', timestamp: ts },
      { type: 'Delivery', id: 'g5', recipient: 'a\u0000nn@gmail.com', timestamp: ts },
      {
        type: 'Bounce',
        id: 'g6',
        recipient: 'ann@gmail.com',
        response: { code: 550, content: 'no\u0000 such user' },
        timestamp: ts,
      },
    ];
    expect((await post('/api/webhooks/kumo', nul, auth)).json()).toEqual({
      accepted: 1,
      duplicates: 0,
      ignored: 0,
      rejected: [
        { index: 0, message: 'Message id holds control characters' },
        { index: 1, message: 'Recipient is not an e-mail address: a?nn@gmail.com' },
      ],
    });
    expect((await storedEvents(userId)).find((e) => e.messageId === 'g6')?.smtpResponse).toBe('550 no such user');

    // Half a character (a lone UTF-16 surrogate, which PostgreSQL's JSON refuses) is stored as U+FFFD, not a 500.
    const halves = [
      {
        type: 'Delivery',
        id: 'g7\ud800',
        recipient: 'ann\udc00@gmail.com',
        response: { code: 250, content: 'OK \ud83d' },
        timestamp: ts,
      },
    ];
    expect((await post('/api/webhooks/kumo', halves, auth)).json()).toMatchObject({ accepted: 1, rejected: [] });
    expect((await storedEvents(userId)).find((e) => e.messageId === 'g7\ufffd')).toMatchObject({
      recipient: 'ann\ufffd@gmail.com',
      smtpResponse: '250 OK \ufffd',
    });

    const nothing = await post('/api/webhooks/postfix', 'hello\nworld\n', auth);
    expect(nothing.statusCode).toBe(400);
    expect(nothing.json()).toEqual({
      code: 'validation_error',
      message:
        'No row of the batch could be read: row 0: Not a syslog line of a mail log; row 1: Not a syslog line of a mail log',
    });
    expect((await post('/api/webhooks/powermta', 'd,1,2,3\n', auth)).json().message).toMatch(/header/);
    expect((await post('/api/webhooks/postfix', '\n\n', auth)).json()).toEqual({
      code: 'validation_error',
      message: 'The batch has no rows',
    });
    const pdf = await t.app.inject({
      method: 'POST',
      url: '/api/webhooks/postfix',
      payload: Buffer.from('%PDF'),
      headers: { 'content-type': 'application/pdf', ...auth },
    });
    expect(pdf.statusCode).toBe(415);
    expect(await storedEvents(userId)).toHaveLength(4);
  });

  it('refuses 1,001 rows with 413 before reading them, and takes 1,000', async () => {
    const { userId, token } = await userWithToken();
    const auth = { authorization: `Bearer ${token}` };
    const line = (i: number) =>
      `${syslogTime(30)} mx1 postfix/smtp[2120]: 4TfKBULK${String(i).padStart(4, '0')}: to=<user${i}@gmail.com>, relay=gmail-smtp-in.l.google.com[142.250.102.27]:25, delay=1, delays=0/0/0/1, dsn=2.0.0, status=sent (250 2.0.0 OK)`;
    const rows = Array.from({ length: 1001 }, (_, i) => line(i));
    const tooMany = await post('/api/webhooks/postfix', rows.join('\n'), auth);
    expect(tooMany.statusCode).toBe(413);
    expect(tooMany.json()).toEqual({
      code: 'payload_too_large',
      message: 'A batch holds at most 1,000 events; this one has 1,001. Send the rest in another request.',
    });
    const kumo = Array.from({ length: 1001 }, (_, i) => ({
      type: 'Delivery',
      id: `b${i}`,
      recipient: `u${i}@gmail.com`,
      timestamp: nowSeconds(),
    }));
    expect((await post('/api/webhooks/kumo', kumo, auth)).statusCode).toBe(413);
    expect(await storedEvents(userId)).toHaveLength(0);

    const ok = await post('/api/webhooks/postfix', rows.slice(0, 1000).join('\n'), auth);
    expect(ok.json()).toEqual({ accepted: 1000, duplicates: 0, ignored: 0, rejected: [] });
    const [gmail] = await metricRows(userId);
    expect([gmail.mailboxProvider, gmail.emailsSent, gmail.delivered]).toEqual(['gmail', 1000, 1000]);
  });
});

describe('what the events feed', () => {
  it('queues the outgoing email.* webhooks and an alert evaluation for new events only', async () => {
    const { client, userId, token } = await userWithToken();
    const hook = await client.post('/api/webhooks', {
      url: 'https://hooks.example.com/inboxpulse',
      events: ['email.bounced', 'email.delivered', 'email.spam_report'],
    });
    expect(hook.statusCode, hook.body).toBe(200);
    const res = await post('/api/webhooks/postfix', postfixBatch('4TfKHOOK0001'), { authorization: `Bearer ${token}` });
    expect(res.json().accepted).toBe(3);
    const deliveries = await t.database.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.userId, userId))
      .orderBy(webhookDeliveries.id);
    expect(deliveries.map((d) => d.eventType).sort()).toEqual(['email.bounced', 'email.delivered']);
    const bounced = JSON.parse(deliveries.find((d) => d.eventType === 'email.bounced')!.body);
    expect(bounced).toMatchObject({
      type: 'email.bounced',
      data: {
        email_id: '4TfKHOOK0001',
        recipient: 'bob@example.org',
        domain: 'mail.example.com',
        bounce_type: 'hard',
        bounce_reason: expect.stringContaining('550 5.1.1'),
        bounced_at: expect.any(String),
        enhanced_status: '5.1.1',
        bounce_cause: 'unknown_user',
      },
    });
    const delivered = JSON.parse(deliveries.find((d) => d.eventType === 'email.delivered')!.body);
    expect(delivered.data).toMatchObject({
      email_id: '4TfKHOOK0001',
      recipient: 'ann@gmail.com',
      provider: 'postfix',
      mailbox_provider: 'gmail',
      delivery_time_ms: 1200,
    });
    for (const d of deliveries) expect(await jobsFor('deliver-webhook', 'deliveryId', d.id)).toBe(1);
    expect(await jobsFor('evaluate-alerts', 'userId', userId)).toBe(1);

    // The same batch again: no new delivery.
    await post('/api/webhooks/postfix', postfixBatch('4TfKHOOK0001'), { authorization: `Bearer ${token}` });
    expect(
      await t.database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.userId, userId)),
    ).toHaveLength(2);
  });

  it('GET /api/email-metrics: one row per provider and day, summed over mailbox providers and IPs, with a date filter', async () => {
    const { client, userId, token } = await userWithToken();
    await post('/api/webhooks/postfix', postfixBatch('4TfKSUM00001'), { authorization: `Bearer ${token}` });
    // A synced ESP's own statistics for yesterday.
    const yesterday = utcDay(daysAgo(1));
    await t.database.db
      .insert(emailMetrics)
      .values({ userId, provider: 'sendgrid', date: yesterday, emailsSent: 100, delivered: 97, bounced: 3 });
    const all = (await client.get('/api/email-metrics')).json();
    expect(all).toEqual([
      {
        id: expect.any(Number),
        provider: 'postfix',
        date: TODAY,
        emailsSent: 2,
        delivered: 1,
        bounced: 1,
        complaints: 0,
      },
      {
        id: expect.any(Number),
        provider: 'sendgrid',
        date: yesterday,
        emailsSent: 100,
        delivered: 97,
        bounced: 3,
        complaints: 0,
      },
    ]);
    expect((await client.get(`/api/email-metrics?date=${yesterday}`)).json()).toEqual([all[1]]);
    expect((await client.get(`/api/email-metrics?from=${TODAY}&to=${TODAY}`)).json()).toEqual([all[0]]);
    expect((await client.get('/api/email-metrics?date=2024-02-30')).statusCode).toBe(400);
    expect((await client.get(`/api/email-metrics?date=${TODAY}&from=${TODAY}`)).statusCode).toBe(400);
    // The dashboard sums the same way.
    const overview = (await client.get('/api/dashboard/overview')).json();
    expect(overview).toBeDefined();
  });

  it('counts an ESP’s synced statistics instead of its webhook events for the same day, not both', async () => {
    const { client, userId, token } = await userWithToken();
    const smtp2go = (email: string) =>
      new URLSearchParams({
        event: 'delivered',
        time: new Date(Date.now() - 60_000).toISOString(),
        rcpt: email,
        email_id: `s-${email}`,
      }).toString();
    for (const email of ['a@gmail.com', 'b@yahoo.com'])
      await t.app.inject({
        method: 'POST',
        url: `/api/webhooks/smtp2go/main?token=${token}`,
        payload: smtp2go(email),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
    expect((await client.get(`/api/email-metrics?date=${TODAY}`)).json()).toEqual([
      expect.objectContaining({ provider: 'smtp2go', emailsSent: 2, delivered: 2 }),
    ]);
    // The plugin's sync writes the day's statistics: they count, the events' rows are left out of the sum.
    await t.database.db
      .insert(emailMetrics)
      .values({ userId, provider: 'smtp2go', date: TODAY, emailsSent: 40, delivered: 39, bounced: 1 });
    expect((await client.get(`/api/email-metrics?date=${TODAY}`)).json()).toEqual([
      {
        id: expect.any(Number),
        provider: 'smtp2go',
        date: TODAY,
        emailsSent: 40,
        delivered: 39,
        bounced: 1,
        complaints: 0,
      },
    ]);
    // The dashboard too: 1 bounce of 40 sent, not 1 of 42.
    expect((await client.get('/api/dashboard/overview')).json().bounceRate).toMatch(/^2\.5/);
  });

  it('shows each user only their own events and figures', async () => {
    const alice = await userWithToken();
    const bob = await userWithToken();
    await post('/api/webhooks/postfix', postfixBatch('4TfKALICE001'), { authorization: `Bearer ${alice.token}` });
    // Bob sends the same message id: his own event, not a duplicate of Alice's.
    expect(
      (
        await post('/api/webhooks/postfix', postfixBatch('4TfKALICE001'), { authorization: `Bearer ${bob.token}` })
      ).json().accepted,
    ).toBe(3);
    await post('/api/webhooks/postfix', postfixBatch('4TfKBOB00001'), { authorization: `Bearer ${bob.token}` });
    const aliceEvents = (await alice.client.get('/api/delivery-events')).json();
    expect(aliceEvents).toHaveLength(3);
    expect(aliceEvents.every((e: { messageId: string }) => e.messageId === '4TfKALICE001')).toBe(true);
    expect((await bob.client.get('/api/delivery-events?eventType=bounced')).json()).toHaveLength(2);
    expect((await alice.client.get('/api/email-metrics')).json()).toEqual([
      expect.objectContaining({ provider: 'postfix', emailsSent: 2 }),
    ]);
    expect((await bob.client.get('/api/email-metrics')).json()).toEqual([
      expect.objectContaining({ provider: 'postfix', emailsSent: 4 }),
    ]);
  });

  it('groups bounces into plain causes per mailbox provider, with the listing of the blocked IP from IP monitoring', async () => {
    const { client, userId, token } = await userWithToken();
    const ip = '203.0.113.77';
    await t.database.db.insert(ipAddresses).values({ userId, ipAddress: ip, type: 'dedicated' });
    dns.zone[`77.113.0.203.zen.spamhaus.org`] = { A: ['127.0.0.2'] };
    await runReputationCheckNow(t, userId);
    const q = 'Q1BLOCK00001';
    const lines = [
      `${syslogTime(50)} mx1 postfix/smtp[1]: ${q}: to=<ann@gmail.com>, relay=mx[192.0.2.1]:25, delay=1, delays=0/0/0/1, dsn=5.7.1, status=bounced (host gmail-smtp-in.l.google.com[142.250.102.27] said: 554 5.7.1 Service unavailable; Client host [${ip}] blocked using zen.spamhaus.org; https://www.spamhaus.org/query/ip/${ip} (in reply to RCPT TO command))`,
      `${syslogTime(49)} mx1 postfix/smtp[1]: ${q}: to=<bob@example.org>, relay=mx[192.0.2.1]:25, delay=1, delays=0/0/0/1, dsn=5.1.1, status=bounced (host mx.example.org[192.0.2.25] said: 550 5.1.1 <bob@example.org>: User unknown (in reply to RCPT TO command))`,
      `${syslogTime(48)} mx1 postfix/smtp[1]: ${q}: to=<carol@yahoo.com>, relay=mx[192.0.2.1]:25, delay=1, delays=0/0/0/1, dsn=4.7.0, status=deferred (host mta5.am0.yahoodns.net[67.195.204.72] said: 421 4.7.0 [TSS04] Messages from ${ip} temporarily deferred due to unexpected volume or user complaints (in reply to MAIL FROM command))`,
      `${syslogTime(47)} mx1 postfix/smtp[1]: ${q}: to=<dan@gmail.com>, relay=mx[192.0.2.1]:25, delay=1, delays=0/0/0/1, dsn=5.7.26, status=bounced (host gmail-smtp-in.l.google.com[142.250.102.27] said: 550-5.7.26 Unauthenticated email from mail.example.com is not accepted due to domain's DMARC policy (in reply to end of DATA command))`,
    ];
    await post(
      '/api/webhooks/postfix',
      `${syslogTime(51)} mx1 postfix/qmgr[1]: ${q}: from=<news@mail.example.com>, size=1, nrcpt=4 (queue active)\n${lines.join('\n')}`,
      {
        authorization: `Bearer ${token}`,
      },
    );
    const res = await client.get('/api/delivery-events/bounce-causes?days=7');
    expect(res.statusCode, res.body).toBe(200);
    const causes = res.json();
    expect(causes.total).toBe(4);
    expect(causes.causes).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ cause: 'blocklist', label: 'Blocked by a blocklist', count: 1 }),
        expect.objectContaining({ cause: 'unknown_user', label: 'Unknown user', count: 1 }),
        // Yahoo's TSS04 deferral is throttling for reputation, said with what to do about it.
        {
          cause: 'reputation_throttled',
          label: 'Throttled for sender reputation',
          count: 1,
          advice: expect.stringContaining('send less to it for a few days'),
        },
        expect.objectContaining({ cause: 'policy', label: 'Policy, DMARC or authentication', count: 1 }),
      ]),
    );
    expect(causes.byMailboxProvider.find((p: { mailboxProvider: string }) => p.mailboxProvider === 'gmail')).toEqual({
      mailboxProvider: 'gmail',
      total: 2,
      causes: expect.arrayContaining([
        expect.objectContaining({ cause: 'blocklist', count: 1 }),
        expect.objectContaining({ cause: 'policy', count: 1 }),
      ]),
    });
    expect(causes.blocklistFindings).toEqual([
      { ip, failures: 1, monitored: true, listedOn: ['Spamhaus ZEN'], lastChecked: expect.any(String) },
    ]);
    // mail.example.com is not registered: no check says anything of it yet.
    expect(causes.authenticationFindings).toEqual([
      { domain: 'mail.example.com', failures: 1, spfStatus: null, dkimStatus: null, dmarcStatus: null },
    ]);
    // Registered as example.com, checked: its statuses explain the policy refusal of mail from its subdomain.
    await t.database.db.insert(domains).values({
      userId,
      domain: 'example.com',
      verificationToken: 'tok-ex',
      spfStatus: 'valid',
      dkimStatus: 'missing',
      dmarcStatus: 'invalid',
    });
    expect((await client.get('/api/delivery-events/bounce-causes?days=7')).json().authenticationFindings).toEqual([
      { domain: 'mail.example.com', failures: 1, spfStatus: 'valid', dkimStatus: 'missing', dmarcStatus: 'invalid' },
    ]);
    const other = await signUp(t.app);
    expect((await other.client.get('/api/delivery-events/bounce-causes')).json()).toMatchObject({
      total: 0,
      causes: [],
      blocklistFindings: [],
    });
    delete dns.zone[`77.113.0.203.zen.spamhaus.org`];
  });
});

describe('InboxPulse’s own event endpoints', () => {
  it('POST /api/events, /api/email-metrics and /api/postfix/events store one event each; /api/v1/events a batch', async () => {
    const { client, user } = await signUp(t.app);
    const userId = user.id;
    const ts = new Date(Date.now() - 5000).toISOString();
    const apiEvent = {
      type: 'bounce',
      message_id: 'app-1',
      recipient: 'ann@gmail.com',
      status: '550 5.1.1 User unknown',
      timestamp: ts,
      sender_ip: '203.0.113.30',
      blacklist_count: 0,
    };
    expect((await client.post('/api/events', apiEvent)).json()).toEqual({
      accepted: 1,
      duplicates: 0,
      ignored: 0,
      rejected: [],
    });
    expect((await client.post('/api/events', apiEvent)).json()).toEqual({
      accepted: 0,
      duplicates: 1,
      ignored: 0,
      rejected: [],
    });
    const bad = await client.post('/api/events', { ...apiEvent, type: 'exploded' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('type must be one of delivered, bounced, deferred, complaint');
    expect(
      (await client.post('/api/events', { ...apiEvent, message_id: 'app-2', sender_ip: 'not-an-ip' })).json().message,
    ).toMatch(/not an IP address/);

    const metricEvent = {
      domain: 'mail.example.com',
      eventType: 'delivered',
      recipient: 'bob@example.org',
      timestamp: ts,
      messageId: 'app-3',
      ipAddress: '203.0.113.30',
    };
    expect((await client.post('/api/email-metrics', metricEvent)).json()).toMatchObject({ accepted: 1 });

    const line = `${syslogTime(20)} mx1 postfix/smtp[2120]: 4TfKAPI00001: to=<carol@yahoo.com>, relay=x[192.0.2.1]:25, delay=1, delays=0/0/0/1, dsn=4.7.0, status=deferred (host x[192.0.2.1] said: 421 4.7.0 try later)`;
    expect(
      (await client.post('/api/postfix/events', { event: 'deferred', timestamp: ts, log_entry: line })).json(),
    ).toMatchObject({ accepted: 1 });

    const batch = [
      { type: 'delivered', message_id: 'v1-1', recipient: 'dan@brand.example', timestamp: ts },
      { type: 'spam', message_id: 'v1-1', recipient: 'dan@brand.example', timestamp: ts },
      { type: 'delivered', message_id: 'v1-2' },
    ];
    const v1 = await client.post('/api/v1/events', { events: batch });
    expect(v1.json()).toEqual({
      accepted: 2,
      duplicates: 0,
      ignored: 0,
      rejected: [{ index: 2, message: 'recipient must be text' }],
    });
    expect(
      (
        await client.post(
          '/api/v1/events',
          Array.from({ length: 1001 }, () => batch[0]),
        )
      ).statusCode,
    ).toBe(413);

    const events = await storedEvents(userId);
    expect(events.map((e) => [e.source, e.eventType, e.recipient, e.sendingIp, e.mailboxProvider])).toEqual([
      ['api', 'bounced', 'ann@gmail.com', '203.0.113.30', 'gmail'],
      ['api', 'delivered', 'bob@example.org', '203.0.113.30', 'other'],
      ['postfix', 'deferred', 'carol@yahoo.com', '', 'yahoo'],
      ['api', 'complaint', 'dan@brand.example', '', 'gmail'],
      ['api', 'delivered', 'dan@brand.example', '', 'gmail'],
    ]);
    expect(events[1].domain).toBe('mail.example.com');
  });

  it('POST /api/v1/metrics sets a day of a source without events; /api/v1/authentication says whose key it is; /api/v1/domains/{id}/status', async () => {
    const { client, user } = await signUp(t.app);
    expect(await jobsFor('evaluate-alerts', 'userId', user.id)).toBe(0);
    const set = await client.post('/api/v1/metrics', {
      provider: 'In-House',
      date: TODAY,
      emailsSent: 500,
      delivered: 490,
      bounced: 10,
    });
    expect(set.json()).toEqual({
      id: expect.any(Number),
      provider: 'in-house',
      date: TODAY,
      emailsSent: 500,
      delivered: 490,
      bounced: 10,
      complaints: 0,
    });
    await client.post('/api/v1/metrics', {
      provider: 'in-house',
      date: TODAY,
      emailsSent: 600,
      delivered: 590,
      bounced: 10,
    });
    expect((await client.get('/api/email-metrics')).json()).toEqual([
      expect.objectContaining({ provider: 'in-house', emailsSent: 600 }),
    ]);
    expect(await jobsFor('evaluate-alerts', 'userId', user.id)).toBeGreaterThan(0); // judged now, not at the next hour
    expect((await client.post('/api/v1/metrics', { provider: 'postfix', date: TODAY, emailsSent: 1 })).statusCode).toBe(
      400,
    );

    expect((await client.post('/api/v1/authentication')).json()).toEqual({
      authenticated: true,
      userId: user.id,
      username: user.username,
      plan: 'free',
      hasWebhookToken: false,
    });

    const domain = (await client.post('/api/domains', { domain: 'mail.example.com' })).json();
    const ts = new Date(Date.now() - 5000).toISOString();
    await client.post('/api/events', {
      type: 'delivered',
      message_id: 'd-1',
      recipient: 'ann@gmail.com',
      timestamp: ts,
      domain: 'mail.example.com',
    });
    await client.post('/api/events', {
      type: 'bounced',
      message_id: 'd-1',
      recipient: 'bob@example.org',
      status: '550 5.1.1 no',
      timestamp: ts,
      domain: 'mail.example.com',
    });
    await client.post('/api/events', {
      type: 'delivered',
      message_id: 'd-2',
      recipient: 'bob@example.org',
      timestamp: ts,
      domain: 'other.example.com',
    });
    await client.post('/api/events', {
      type: 'delivered',
      message_id: 'd-3',
      recipient: 'bob@example.org',
      timestamp: ts,
      domain: 'bounce.mail.example.com',
    });
    await client.post('/api/events', {
      type: 'delivered',
      message_id: 'd-4',
      recipient: 'bob@example.org',
      timestamp: ts,
      domain: 'xmail.example.com',
    });
    const status = await client.get(`/api/v1/domains/${domain.id}/status`);
    expect(status.json()).toMatchObject({
      id: domain.id,
      domain: 'mail.example.com',
      status: expect.any(String),
      // Its own mail and a bounce subdomain's, not another domain's that only ends alike.
      delivery: { days: 7, sent: 3, delivered: 2, bounced: 1, hardBounces: 1, deliveryRate: 66.7, bounceRate: 33.3 },
    });
    const other = await signUp(t.app);
    expect((await other.client.get(`/api/v1/domains/${domain.id}/status`)).statusCode).toBe(404);
  });
});

describe('the /v1/postfix API (API key)', () => {
  it('takes log lines and queue snapshots, answers analytics and the configuration, and refuses a session cookie', async () => {
    const { client, user } = await signUp(t.app);
    const userId = user.id;
    await t.database.pool.query(`UPDATE users SET subscription_plan = 'professional' WHERE id = $1`, [userId]);
    const key = (await client.post('/api/api-keys/generate')).json().apiKey as string;
    const bearer = { authorization: `Bearer ${key}` };

    expect((await client.get('/v1/postfix/config')).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/v1/postfix/config' })).json().message).toMatch(
      /Send your API key/,
    );

    const logs = await post('/v1/postfix/logs', postfixBatch('4TfKV1LOGS01'), bearer);
    expect(logs.json()).toEqual({ accepted: 3, duplicates: 0, ignored: 1, rejected: [] });

    const arrival = nowSeconds() - 600;
    const queue = [
      {
        queue_name: 'deferred',
        queue_id: '4TfKV1LOGS01',
        arrival_time: arrival,
        message_size: 4211,
        forced_expire: false,
        sender: 'news@mail.example.com',
        recipients: [
          {
            address: 'carol@yahoo.com',
            delay_reason: 'host mta7.am0.yahoodns.net[67.195.204.72] said: 421 4.7.0 [TSS04] deferred',
          },
        ],
      },
      {
        queue_name: 'deferred',
        queue_id: '4TfKV1QUEUE2',
        arrival_time: arrival - 3600,
        message_size: 900,
        forced_expire: false,
        sender: 'news@mail.example.com',
        recipients: [
          {
            address: 'dave@example.org',
            delay_reason: 'connect to mx.example.org[192.0.2.25]:25: Connection timed out',
          },
        ],
      },
      {
        queue_name: 'active',
        queue_id: '4TfKV1QUEUE3',
        arrival_time: arrival,
        message_size: 900,
        forced_expire: false,
        sender: 'news@mail.example.com',
        recipients: [{ address: 'erin@gmail.com' }],
      },
    ];
    const q = await t.app.inject({
      method: 'POST',
      url: '/v1/postfix/queue',
      payload: queue.map((m) => JSON.stringify(m)).join('\n'),
      headers: { 'content-type': 'application/x-ndjson', ...bearer },
    });
    expect(q.statusCode, q.body).toBe(200);
    expect(q.json()).toEqual({
      messages: 3,
      recipients: 3,
      byQueue: { deferred: 2, active: 1 },
      oldestArrival: new Date((arrival - 3600) * 1000).toISOString(),
      // carol's deferral came from the log already: the same event.
      deferred: { accepted: 1, duplicates: 1, ignored: 1, rejected: [] },
    });

    const analytics = await t.app.inject({ method: 'GET', url: '/v1/postfix/analytics?days=7', headers: bearer });
    expect(analytics.json()).toMatchObject({
      days: 7,
      figures: { sent: 2, delivered: 1, bounced: 1, deferred: 2, deliveryRate: 50 },
      byMailboxProvider: expect.arrayContaining([
        { mailboxProvider: 'yahoo', figures: expect.objectContaining({ deferred: 1 }) },
      ]),
      bounceCauses: expect.arrayContaining([expect.objectContaining({ cause: 'unknown_user', count: 1 })]),
    });
    const config = await t.app.inject({ method: 'GET', url: '/v1/postfix/config', headers: bearer });
    expect(config.json()).toMatchObject({
      logsEndpoint: 'http://localhost:3000/v1/postfix/logs',
      webhookEndpoint: 'http://localhost:3000/api/webhooks/postfix',
      hasWebhookToken: false,
      batchMax: 1000,
    });
    expect(config.json().mainCf).toContain('enable_long_queue_ids = yes');
    // Other /v1 paths still answer JSON 404.
    expect((await t.app.inject({ method: 'GET', url: '/v1/postfix/other' })).statusCode).toBe(404);
    expect(
      await t.database.db
        .select()
        .from(deliveryEvents)
        .where(and(eq(deliveryEvents.userId, userId), eq(deliveryEvents.eventType, 'deferred'))),
    ).toHaveLength(2);
  });
});
