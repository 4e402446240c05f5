import { describe, expect, it } from 'vitest';
import { parseGreenArrowRecords } from './greenarrow';
import { jsonRecords } from './json-records';
import { policyDeferral, unknownRecipientBounce } from './parser.test-support';

const NOW = Date.UTC(2024, 0, 20, 12, 0, 0);

// GreenArrow Engine event notifications over HTTP POST with use_json_for_http_post: one event a request.
const attempt = (status: string, email: string, message: string, extra: Record<string, unknown> = {}) => ({
  id: '1021',
  event_type: 'delivery_attempt',
  event_time: 1705314225,
  email,
  listid: 'a1',
  sendid: 'spring-sale-0115',
  channel: 'remote',
  status,
  is_retry: 0,
  msguid: '1705314224.2145.mta1',
  sender: 'bounce-a1@mail.example.com',
  mtaid: 'smtp1',
  injected_time: 1705314224,
  message,
  outmtaid: 'ip-10',
  outmtaid_ip: '203.0.113.10',
  outmtaid_hostname: 'mta1.mail.example.com',
  mx_hostname: 'gmail-smtp-in.l.google.com',
  mx_ip: '142.250.102.27',
  synchronous: 0,
  ...extra,
});

describe('GreenArrow event notifications', () => {
  const events = [
    attempt(
      'success',
      'ann@gmail.com',
      '142.250.102.27 accepted message. Remote host said: 250 2.0.0 OK 1705314225 d2e1a72fcca58-7d5f5b2c1b0si1234567pfb.12 - gsmtp',
    ),
    attempt(
      'failure',
      'bob@example.org',
      '192.0.2.25 does not like recipient. Remote host said: 550 5.1.1 <bob@example.org>: Recipient address rejected: User unknown',
    ),
    attempt(
      'deferral',
      'carol@yahoo.com',
      '67.195.204.72 does not like recipient. Remote host said: 421 4.7.0 [TSS04] Messages from 203.0.113.10 temporarily deferred',
    ),
    attempt(
      'failure_toolong',
      'dave@example.net',
      'Unable to deliver within the allowed time. Last error: Connection timed out',
    ),
    attempt('connmaxout', 'erin@example.com', ''),
    {
      id: '1022',
      event_type: 'bounce_all',
      event_time: 1705314290,
      email: 'bob@example.org',
      listid: 'a1',
      sendid: 'spring-sale-0115',
      bounce_type: 'h',
      bounce_code: 10,
      bounce_text: '192.0.2.25 failed after I sent the message. Remote host said: 550 5.1.1 User unknown',
    },
    {
      id: '1023',
      event_type: 'scomp',
      event_time: 1705400000,
      email: 'ann@gmail.com',
      listid: 'a1',
      sendid: 'spring-sale-0115',
      native_format: 'arf',
    },
    {
      id: '1024',
      event_type: 'engine_open',
      event_time: 1705314400,
      email: 'ann@gmail.com',
      listid: 'a1',
      sendid: 'spring-sale-0115',
    },
    {
      id: '1025',
      event_type: 'bounce_all',
      event_time: 1705314290,
      email: 'x@example.org',
      sendid: 's',
      bounce_type: 'o',
      bounce_text: 'out of office',
    },
    { id: '1026', event_time: 1705314290, email: 'x@example.org' },
    // A legacy bounce processor record as its form fields arrive, with the example values of
    // https://www.greenarrowemail.com/docs/greenarrow-engine/Event-Notification-System/Legacy-Types-of-Events
    Object.fromEntries(
      new URLSearchParams(
        'event_type=hook_stat&listid=t99&email=customer%40example.com&sendid=t9920110705&bounce_type=h&bounce_rule=10&bounce_message=1.1.1.1+failed+after+I+sent+the+message.+Remote+host+said%3A+554+delivery+error%3A+dd+This+user+doesn%27t+have+a+yahoo.com+account+(user%40yahoo.com)+%5C-+mta1218.mail.mud.yahoo.com&bounce_time=1309867200',
      ),
    ),
    { ...attempt('queued_elsewhere', 'x@example.org', '') },
  ];
  const rows = parseGreenArrowRecords(jsonRecords(events), NOW);

  it('reads delivery attempts by status, with the outbound IP and the remote answer', () => {
    expect(rows[0]).toEqual({
      event: {
        messageId: 'a1:spring-sale-0115',
        recipient: 'ann@gmail.com',
        eventType: 'delivered',
        bounceClass: null,
        enhancedStatus: '2.0.0',
        smtpResponse:
          '142.250.102.27 accepted message. Remote host said: 250 2.0.0 OK 1705314225 d2e1a72fcca58-7d5f5b2c1b0si1234567pfb.12 - gsmtp',
        domain: 'mail.example.com',
        recipientDomain: 'gmail.com',
        sendingIp: '203.0.113.10',
        occurredAt: new Date(1705314225000),
        deliveryTimeMs: null,
        category: null,
      },
    });
    expect(rows[1]).toMatchObject(unknownRecipientBounce());
    expect(rows[2]).toMatchObject(policyDeferral());
    expect(rows[3]).toMatchObject({ event: { eventType: 'bounced', bounceClass: 'soft' } });
    expect(rows[4]).toEqual({ ignored: 'Held back by a throttle (connmaxout): no attempt was made' });
  });

  it('a bounce_all of the same message is the same bounce (list and SendID); spam complaints count, opens are ignored', () => {
    expect(rows[5]).toMatchObject({
      event: {
        eventType: 'bounced',
        bounceClass: 'hard',
        messageId: 'a1:spring-sale-0115',
        recipient: 'bob@example.org',
      },
    });
    expect(rows[6]).toMatchObject({ event: { eventType: 'complaint', recipient: 'ann@gmail.com' } });
    expect(rows[7]).toEqual({ ignored: 'engine_open is not a delivery outcome' });
    expect(rows[8]).toEqual({
      ignored: 'A bounce of type "other" (an auto-reply or challenge), not a delivery failure',
    });
    expect(rows[9]).toEqual({ error: 'No event_type' });
  });

  it('reads a legacy hook_stat record as the bounce it reports, and ignores a status it does not know', () => {
    expect(rows[10]).toEqual({
      event: {
        messageId: 't99:t9920110705',
        recipient: 'customer@example.com',
        eventType: 'bounced',
        bounceClass: 'hard',
        enhancedStatus: null,
        smtpResponse:
          "1.1.1.1 failed after I sent the message. Remote host said: 554 delivery error: dd This user doesn't have a yahoo.com account (user@yahoo.com) \\- mta1218.mail.mud.yahoo.com",
        domain: null,
        recipientDomain: 'example.com',
        sendingIp: '',
        occurredAt: new Date(1309867200 * 1000),
        deliveryTimeMs: null,
        category: null,
      },
    });
    expect(rows[11]).toEqual({ ignored: 'Delivery status queued_elsewhere is not a delivery outcome' });
  });
});
