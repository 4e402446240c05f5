import { describe, expect, it } from 'vitest';
import { parseHalonRecords } from './halon';
import { jsonRecords } from './json-records';
import { gmailDelivery, policyDeferral, unknownRecipientBounce } from './parser.test-support';

const NOW = Date.UTC(2024, 0, 20, 12, 0, 0);

// What Halon's post-delivery hook posts through http-bulk (NDJSON): ["type" => "delivery",
// "time" => round(time() * 1000), "message" => $message, ...$arguments] (docs.halon.io/hsl/postdelivery.html).
const message = (recipient: string, queue: number) => ({
  id: { transaction: '18c190a3-93f7-47d7-bd6c-1ae87c9d8e52', queue },
  ts: 1705314224.1234,
  serverid: 'outbound',
  sender: 'news@mail.example.com',
  senderaddress: { localpart: 'news', domain: 'mail.example.com' },
  recipient,
  recipientaddress: { localpart: recipient.split('@')[0], domain: recipient.split('@')[1] },
  transportid: 'mailtransport:1',
  jobid: 'spring-sale',
  priority: 1,
  size: 4211,
});
const delivered = {
  type: 'delivery',
  time: 1705314225123,
  retry: 0,
  message: message('ann@gmail.com', 1),
  policy: { tags: [] },
  attempt: {
    result: {
      code: 250,
      enhanced: [2, 0, 0],
      reason: ['OK 1705314225 d2e1a72fcca58-7d5f5b2c1b0si1234567pfb.12 - gsmtp'],
      state: 'EOD',
    },
    connection: { localip: '203.0.113.10', remoteip: '142.250.102.27', remotemx: 'gmail-smtp-in.l.google.com' },
    duration: 0.84,
  },
};
const queued = {
  type: 'delivery',
  time: 1705314226000,
  retry: 0,
  action: 'QUEUE',
  message: message('carol@yahoo.com', 2),
  attempt: {
    result: {
      code: 421,
      enhanced: [4, 7, 0],
      reason: ['[TSS04] Messages from 203.0.113.10 temporarily deferred due to unexpected volume or user complaints'],
      state: 'MAIL',
    },
    connection: { localip: '203.0.113.10', remoteip: '67.195.204.72' },
    duration: 0.3,
  },
  dsn: { action: 'delayed' },
};
const bounced = {
  type: 'delivery',
  time: 1705314227000,
  retry: 0,
  action: 'BOUNCE',
  message: message('bob@example.org', 3),
  attempt: {
    result: {
      code: 550,
      enhanced: [5, 1, 1],
      reason: ['<bob@example.org>: Recipient address rejected: User unknown'],
      state: 'RCPT',
    },
    connection: { localip: '203.0.113.10', remoteip: '192.0.2.25' },
    duration: 0.2,
  },
  dsn: { action: 'failed' },
};
const expired = {
  type: 'delivery',
  time: 1705400000000,
  retry: 12,
  action: 'BOUNCE',
  message: message('dave@example.net', 4),
  attempt: {
    error: { temporary: true, message: 'Connection timed out' },
    connection: { localip: '203.0.113.11' },
    duration: 30,
  },
};
const deleted = { type: 'delivery', time: 1705400001000, action: 'DELETE', message: message('erin@example.com', 5) };
const queueEvent = { type: 'queue', time: 1705314224000, id: '18c190a3', recipient: 'ann@gmail.com' };

describe('Halon delivery records', () => {
  const ndjson = [
    delivered,
    queued,
    bounced,
    expired,
    deleted,
    queueEvent,
    { type: 'delivery', time: 1705314225123, message: message('x@example.com', 6) },
    { ...deleted, action: 'QUARANTINE' },
  ]
    .map((r) => JSON.stringify(r))
    .join('\n');
  const rows = parseHalonRecords(jsonRecords(ndjson), NOW);

  it('reads a delivery, a deferral (QUEUE) and a bounce (BOUNCE) with the local IP and the SMTP result', () => {
    expect(rows[0]).toEqual(
      gmailDelivery({
        messageId: '18c190a3-93f7-47d7-bd6c-1ae87c9d8e52',
        sendingIp: '203.0.113.10',
        occurredAt: new Date(1705314225123),
        deliveryTimeMs: 840,
      }),
    );
    expect(rows[1]).toMatchObject(policyDeferral());
    expect(rows[2]).toMatchObject(unknownRecipientBounce());
  });

  it('a bounce after temporary errors only is soft; a message deleted without a failure and other record types are ignored', () => {
    expect(rows[3]).toMatchObject({
      event: {
        eventType: 'bounced',
        bounceClass: 'soft',
        smtpResponse: 'Connection timed out',
        sendingIp: '203.0.113.11',
      },
    });
    expect(rows[4]).toEqual({ ignored: 'Deleted from the queue without a permanent failure' });
    expect(rows[5]).toEqual({ ignored: 'A queue record, not a delivery attempt' });
    expect(rows[6]).toEqual({ error: 'No action and no 2xx answer: not a delivery' });
    expect(rows[7]).toEqual({ ignored: 'Action QUARANTINE is not a delivery outcome' });
  });
});
