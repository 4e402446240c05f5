import { describe, expect, it } from 'vitest';
import { parsePostalRecords } from './postal';
import { jsonRecords } from './json-records';
import { policyDeferral, unknownRecipientBounce } from './parser.test-support';

const NOW = Date.UTC(2024, 0, 20, 12, 0, 0);

// Postal's webhook request bodies: {event, timestamp, payload, uuid} (app/models/webhook_request.rb),
// with the payloads of docs.postalserver.io/developer/webhooks.
const message = {
  id: 12345,
  token: 'abcdef123',
  direction: 'outgoing',
  message_id: '5817a64332f44_4ec93ff59e79d154565eb@app34.mail',
  to: 'test@gmail.com',
  from: 'sales@awesomeapp.com',
  subject: 'Welcome to AwesomeApp',
  timestamp: 1705314100.12994,
  spam_status: 'NotSpam',
  tag: 'welcome',
};
const sent = {
  event: 'MessageSent',
  timestamp: 1705314225.5,
  uuid: 'a3b5c7d9-0000-4000-8000-000000000001',
  payload: {
    status: 'Sent',
    details: 'Message sent by SMTP to aspmx.l.google.com (2a00:1450:400c:c0b::1b) (from 2a00:67a0:a:15::2)',
    output: '250 2.0.0 OK 1705314225 ly2si31746747wjb.95 - gsmtp',
    time: 0.22,
    sent_with_ssl: true,
    timestamp: 1705314225.12994,
    message,
  },
};
const delayed = {
  event: 'MessageDelayed',
  timestamp: 1705314300,
  uuid: 'a3b5c7d9-0000-4000-8000-000000000002',
  payload: {
    status: 'SoftFail',
    details: 'Temporary SMTP delivery error when sending to mta6.am0.yahoodns.net (67.195.204.72) (from 185.22.208.10)',
    output:
      '421 4.7.0 [TSS04] Messages from 185.22.208.10 temporarily deferred due to unexpected volume or user complaints',
    time: 0.4,
    sent_with_ssl: false,
    timestamp: 1705314300,
    message: { ...message, id: 12346, to: 'carol@yahoo.com' },
  },
};
const failedDelivery = {
  event: 'MessageDeliveryFailed',
  timestamp: 1705314400,
  uuid: 'a3b5c7d9-0000-4000-8000-000000000003',
  payload: {
    status: 'HardFail',
    details: 'Permanent SMTP delivery error when sending to mx.example.org (192.0.2.25) (from 185.22.208.10)',
    output: '550 5.1.1 <bob@example.org>: Recipient address rejected: User unknown',
    time: 0.3,
    sent_with_ssl: true,
    timestamp: 1705314400,
    message: { ...message, id: 12347, to: 'bob@example.org' },
  },
};
const bounced = {
  event: 'MessageBounced',
  timestamp: 1705314500,
  uuid: 'a3b5c7d9-0000-4000-8000-000000000004',
  payload: {
    original_message: { ...message, id: 12348, to: 'dave@example.net' },
    bounce: {
      ...message,
      id: 12349,
      direction: 'incoming',
      to: 'abcde@amrp.appmail.io',
      from: 'postmaster@example.net',
      subject: 'Delivery Status Notification (Failure)',
      timestamp: 1705314499,
    },
  },
};
const clicked = {
  event: 'MessageLinkClicked',
  timestamp: 1705314600,
  uuid: 'x',
  payload: { url: 'https://atech.media', token: 'VJzsFA0S', message },
};

describe('Postal webhooks', () => {
  const rows = parsePostalRecords(
    jsonRecords([
      sent,
      delayed,
      failedDelivery,
      bounced,
      clicked,
      { event: 'MessageSent', payload: { status: 'Sent', message: { ...message, to: '' } } },
      { event: 'Surprise' },
      sent.payload,
    ]),
    NOW,
  );

  it('reads sent, delayed, failed and bounced messages by the Message-ID, with the output and the address sent from', () => {
    expect(rows[0]).toEqual({
      event: {
        messageId: '5817a64332f44_4ec93ff59e79d154565eb@app34.mail',
        recipient: 'test@gmail.com',
        eventType: 'delivered',
        bounceClass: null,
        enhancedStatus: '2.0.0',
        smtpResponse: '250 2.0.0 OK 1705314225 ly2si31746747wjb.95 - gsmtp',
        domain: 'awesomeapp.com',
        recipientDomain: 'gmail.com',
        sendingIp: '2a00:67a0:a:15::2',
        occurredAt: new Date(1705314225129.94),
        deliveryTimeMs: null,
        category: null,
      },
    });
    expect(rows[1]).toMatchObject(policyDeferral({ sendingIp: '185.22.208.10', recipient: 'carol@yahoo.com' }));
    expect(rows[2]).toMatchObject(unknownRecipientBounce({ recipient: 'bob@example.org' }));
    expect(rows[3]).toMatchObject({
      event: {
        eventType: 'bounced',
        bounceClass: 'hard',
        recipient: 'dave@example.net',
        occurredAt: new Date(1705314499000),
        smtpResponse: expect.stringContaining('postmaster@example.net'),
      },
    });
  });

  it('ignores clicks and events it does not know, refuses what it cannot read, and reads a bare payload by its status', () => {
    expect(rows[4]).toEqual({ ignored: 'MessageLinkClicked is not a delivery outcome' });
    expect(rows[5]).toEqual({ error: 'No recipient' });
    expect(rows[6]).toEqual({ ignored: 'Surprise is not a delivery outcome' });
    expect(rows[7]).toEqual(rows[0]);
  });
});
