import { describe, expect, it } from 'vitest';
import { eventsOf } from '../../delivery-event';
import { sesRows } from '../amazon-ses';
import { sparkpostRows } from '../sparkpost';
import { SES_BOUNCE } from './vendor-payloads';

/*
 * Mail an ESP never sent (a suppressed address, a message it refused) is kept as `dropped`: never a sent message or a
 * bounce, but the sender sees what it lost. The routes test covers SendGrid, Mailgun and Mailjet end to end; these
 * are the shapes that need SNS or a batch to arrive.
 */

/**
 * The Amazon SES developer guide's Reject record ("Examples of event data that Amazon SES publishes to Amazon SNS",
 * https://docs.aws.amazon.com/ses/latest/dg/event-publishing-retrieving-sns-examples.html), its headers, common
 * headers and tags left out.
 */
const SES_REJECT = `{
  "eventType":"Reject",
  "mail":{
    "timestamp":"2016-10-14T17:38:15.211Z",
    "source":"sender@example.com",
    "sourceArn":"arn:aws:ses:us-east-1:123456789012:identity/sender@example.com",
    "sendingAccountId":"123456789012",
    "messageId":"EXAMPLE7c191be45-e9aedb9a-02f9-4d12-a87d-dd0099a07f8a-000000",
    "destination":[
      "sender@example.com"
    ],
    "headersTruncated":false
  },
  "reject":{
    "reason":"Bad content"
  }
}`;

/**
 * SparkPost's sample policy_rejection event (its webhook event samples, `GET /api/v1/webhooks/events/samples`), as
 * SparkPost client libraries' tests reproduce it: bounce class 25, Admin Failure.
 */
const SPARKPOST_POLICY_REJECTION = [
  {
    msys: {
      message_event: {
        type: 'policy_rejection',
        campaign_id: 'Example Campaign Name',
        customer_id: '1',
        error_code: '554',
        event_id: '92356927693813856',
        friendly_from: 'sender@example.com',
        message_id: '000443ee14578172be22',
        msg_from: 'sender@example.com',
        rcpt_meta: { hashId: '4' },
        rcpt_tags: ['male', 'US'],
        rcpt_to: 'recipient@example.com',
        raw_rcpt_to: 'recipient@example.com',
        rcpt_type: 'to',
        raw_reason: 'MAIL REFUSED - IP (19.99.99.99) is in black list',
        reason: 'MAIL REFUSED - IP (a.b.c.d) is in black list',
        remote_addr: '127.0.0.1',
        subaccount_id: '101',
        template_id: 'templ-1234',
        template_version: '1',
        timestamp: '1454442600',
        transmission_id: '65832150921904138',
        bounce_class: '25',
      },
    },
  },
];

const outcomes = (rows: ReturnType<typeof sesRows>) =>
  rows.flatMap(eventsOf).map((e) => ({
    eventType: e.eventType,
    recipient: e.recipient,
    messageId: e.messageId,
    bounceClass: e.bounceClass,
    smtpResponse: e.smtpResponse,
  }));

describe('events of mail an ESP never sent', () => {
  it('Amazon SES Reject: one dropped event per recipient, with SES’s reason', () => {
    expect(outcomes(sesRows(SES_REJECT))).toEqual([
      {
        eventType: 'dropped',
        recipient: 'sender@example.com',
        messageId: 'EXAMPLE7c191be45-e9aedb9a-02f9-4d12-a87d-dd0099a07f8a-000000',
        bounceClass: null,
        smtpResponse: 'Bad content',
      },
    ]);
  });

  it('Amazon SES bounce of an address on the suppression list: dropped, not a bounce', () => {
    // The guide's bounce with a DSN, its sub-type set to what SES sends for its account-level suppression list.
    const suppressed = SES_BOUNCE.replace('"bounceSubType":"General"', '"bounceSubType":"OnAccountSuppressionList"');
    expect(suppressed).not.toBe(SES_BOUNCE);
    expect(outcomes(sesRows(suppressed)).map((e) => e.eventType)).toEqual(['dropped']);
    expect(outcomes(sesRows(SES_BOUNCE)).map((e) => e.eventType)).toEqual(['bounced']);
  });

  it('SparkPost policy_rejection (Admin Failure): dropped, with its reason', () => {
    expect(outcomes(sparkpostRows(SPARKPOST_POLICY_REJECTION))).toEqual([
      {
        eventType: 'dropped',
        recipient: 'recipient@example.com',
        messageId: '000443ee14578172be22',
        bounceClass: null,
        smtpResponse: 'MAIL REFUSED - IP (19.99.99.99) is in black list',
      },
    ]);
  });
});
