/*
 * The ESPs' documented payloads, verbatim, each with its source. Tests sign them as the provider does; nothing here
 * is shaped to fit the parsers.
 */

/**
 * SendGrid's official Node SDK, packages/eventwebhook/src/eventwebhook.spec.js (sendgrid/sendgrid-nodejs): a payload
 * SendGrid signed, with the verification key, signature and timestamp it was signed with.
 */
export const SENDGRID_SDK_FIXTURE = {
  publicKey:
    'MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEEDr2LjtURuePQzplybdC+u4CwrqDqBaWjcMMsTbhdbcwHBcepxo7yAQGhHPTnlvFYPAZFceEu/1FwCM/QmGUhA==',
  signature: 'MEUCIQCtIHJeH93Y+qpYeWrySphQgpNGNr/U+UyUlBkU6n7RAwIgJTz2C+8a8xonZGi6BpSzoQsbVRamr2nlxFDWYNH2j/0=',
  timestamp: '1588788367',
  payload: JSON.stringify({ category: 'example_payload', event: 'test_event', message_id: 'message_id' }),
};

/**
 * SendGrid's Event Webhook Reference, "an event response that includes an example of each type of event"
 * (sendgrid/docs, content/docs/for-developers/tracking-events/event.md).
 */
export const SENDGRID_EVERY_EVENT = `[
   {
      "email":"example@test.com",
      "timestamp":1513299569,
      "smtp-id":"<14c5d75ce93.dfd.64b469@ismtpd-555>",
      "event":"processed",
      "category":"cat facts",
      "sg_event_id":"sg_event_id",
      "sg_message_id":"sg_message_id"
   },
   {
      "email":"example@test.com",
      "timestamp":1513299569,
      "smtp-id":"<14c5d75ce93.dfd.64b469@ismtpd-555>",
      "event":"deferred",
      "category":"cat facts",
      "sg_event_id":"sg_event_id",
      "sg_message_id":"sg_message_id",
      "response":"400 try again later",
      "attempt":"5"
   },
   {
      "email":"example@test.com",
      "timestamp":1513299569,
      "smtp-id":"<14c5d75ce93.dfd.64b469@ismtpd-555>",
      "event":"delivered",
      "category":"cat facts",
      "sg_event_id":"sg_event_id",
      "sg_message_id":"sg_message_id",
      "response":"250 OK"
   },
   {
      "email":"example@test.com",
      "timestamp":1513299569,
      "smtp-id":"<14c5d75ce93.dfd.64b469@ismtpd-555>",
      "event":"open",
      "category":"cat facts",
      "sg_event_id":"sg_event_id",
      "sg_message_id":"sg_message_id",
      "useragent":"Mozilla/4.0 (compatible; MSIE 6.1; Windows XP; .NET CLR 1.1.4322; .NET CLR 2.0.50727)",
      "ip":"255.255.255.255"
   },
   {
      "email":"example@test.com",
      "timestamp":1513299569,
      "smtp-id":"<14c5d75ce93.dfd.64b469@ismtpd-555>",
      "event":"click",
      "category":"cat facts",
      "sg_event_id":"sg_event_id",
      "sg_message_id":"sg_message_id",
      "useragent":"Mozilla/4.0 (compatible; MSIE 6.1; Windows XP; .NET CLR 1.1.4322; .NET CLR 2.0.50727)",
      "ip":"255.255.255.255",
      "url":"http://www.sendgrid.com/"
   },
   {
      "email":"example@test.com",
      "timestamp":1513299569,
      "smtp-id":"<14c5d75ce93.dfd.64b469@ismtpd-555>",
      "event":"bounce",
      "category":"cat facts",
      "sg_event_id":"sg_event_id",
      "sg_message_id":"sg_message_id",
      "reason":"500 unknown recipient",
      "status":"5.0.0"
   },
   {
      "email":"example@test.com",
      "timestamp":1513299569,
      "smtp-id":"<14c5d75ce93.dfd.64b469@ismtpd-555>",
      "event":"dropped",
      "category":"cat facts",
      "sg_event_id":"sg_event_id",
      "sg_message_id":"sg_message_id",
      "reason":"Bounced Address",
      "status":"5.0.0"
   },
   {
      "email":"example@test.com",
      "timestamp":1513299569,
      "smtp-id":"<14c5d75ce93.dfd.64b469@ismtpd-555>",
      "event":"spamreport",
      "category":"cat facts",
      "sg_event_id":"sg_event_id",
      "sg_message_id":"sg_message_id"
   },
   {
      "email":"example@test.com",
      "timestamp":1513299569,
      "smtp-id":"<14c5d75ce93.dfd.64b469@ismtpd-555>",
      "event":"unsubscribe",
      "category":"cat facts",
      "sg_event_id":"sg_event_id",
      "sg_message_id":"sg_message_id"
   },
   {
      "email":"example@test.com",
      "timestamp":1513299569,
      "smtp-id":"<14c5d75ce93.dfd.64b469@ismtpd-555>",
      "event":"group_unsubscribe",
      "category":"cat facts",
      "sg_event_id":"sg_event_id",
      "sg_message_id":"sg_message_id",
      "useragent":"Mozilla/4.0 (compatible; MSIE 6.1; Windows XP; .NET CLR 1.1.4322; .NET CLR 2.0.50727)",
      "ip":"255.255.255.255",
      "url":"http://www.sendgrid.com/",
      "asm_group_id":10
   },
   {
      "email":"example@test.com",
      "timestamp":1513299569,
      "smtp-id":"<14c5d75ce93.dfd.64b469@ismtpd-555>",
      "event":"group_resubscribe",
      "category":"cat facts",
      "sg_event_id":"sg_event_id",
      "sg_message_id":"sg_message_id",
      "useragent":"Mozilla/4.0 (compatible; MSIE 6.1; Windows XP; .NET CLR 1.1.4322; .NET CLR 2.0.50727)",
      "ip":"000.000.000.000",
      "url":"http://www.sendgrid.com/",
      "asm_group_id":10
   }
]`;

/** The same reference's "Blocked" example: a bounce SendGrid marks as a temporary block. */
export const SENDGRID_BLOCKED = `[
   {
      "email":"example@test.com",
      "timestamp":1513299569,
      "smtp-id":"<14c5d75ce93.dfd.64b469@ismtpd-555>",
      "event":"bounce",
      "category":"cat facts",
      "sg_event_id":"6g4ZI7SA-xmRDv57GoPIPw==",
      "sg_message_id":"14c5d75ce93.dfd.64b469.filter0001.16648.5515E0B88.0",
      "reason":"500 unknown recipient",
      "status":"5.0.0",
      "type":"blocked"
   }
]`;

/**
 * The event-data of Mailgun's "Test webhook" post for a temporary failure (the control panel's Sending, Webhooks,
 * Test webhook), as Mailgun sends it to a sandbox domain's webhook.
 */
export const MAILGUN_TEMPORARY_FAILURE = {
  severity: 'temporary',
  tags: ['my_tag_1', 'my_tag_2'],
  timestamp: 1521472262.908181,
  storage: {
    url: 'https://se.api.mailgun.net/v3/domains/sandbox5eefc36737c54ad8a95c7125a83a76ca.mailgun.org/messages/message_key',
    key: 'message_key',
  },
  'log-level': 'warn',
  id: 'Fs7-5t81S2ispqxqDw2U4Q',
  campaigns: [],
  reason: 'generic',
  'user-variables': { my_var_1: 'Mailgun Variable #1', 'my-var-2': 'awesome' },
  flags: { 'is-routed': false, 'is-authenticated': true, 'is-system-test': false, 'is-test-mode': false },
  'recipient-domain': 'example.com',
  envelope: {
    transport: 'smtp',
    sender: 'bob@sandbox5eefc36737c54ad8a95c7125a83a76ca.mailgun.org',
    'sending-ip': '209.61.154.250',
    targets: 'alice@example.com',
  },
  message: {
    headers: {
      to: 'Alice <alice@example.com>',
      'message-id': '20130503182626.18666.16540@sandbox5eefc36737c54ad8a95c7125a83a76ca.mailgun.org',
      from: 'Bob <bob@sandbox5eefc36737c54ad8a95c7125a83a76ca.mailgun.org>',
      subject: 'Test delivered webhook',
    },
    attachments: [],
    size: 111,
  },
  recipient: 'alice@example.com',
  event: 'failed',
  'delivery-status': {
    tls: true,
    'mx-host': 'smtp-in.example.com',
    'attempt-no': 1,
    description: '',
    'session-seconds': 0.1281740665435791,
    utf8: true,
    'retry-seconds': 600,
    code: 452,
    message:
      '4.2.2 The email account that you tried to reach is over quota. Please direct\n4.2.2 the recipient to\n4.2.2  https://support.example.com/mail/?p=422',
    'certificate-verified': true,
  },
};

/** Mailgun's "Test webhook" post for a permanent failure: an address Mailgun suppressed, never tried (code 605). */
export const MAILGUN_PERMANENT_SUPPRESSED = {
  id: 'G9Bn5sl1TC6nu79C8C0bwg',
  timestamp: 1521233195.375624,
  'log-level': 'error',
  event: 'failed',
  severity: 'permanent',
  reason: 'suppress-bounce',
  'delivery-status': {
    'attempt-no': 1,
    message: '',
    code: 605,
    'enhanced-code': '',
    description: 'Not delivering to previously bounced address',
    'session-seconds': 0,
  },
  flags: { 'is-routed': false, 'is-authenticated': true, 'is-system-test': false, 'is-test-mode': false },
  envelope: {
    sender: 'bob@sandbox5eefc36737c54ad8a95c7125a83a76ca.mailgun.org',
    transport: 'smtp',
    targets: 'alice@example.com',
  },
  message: {
    headers: {
      to: 'Alice <alice@example.com>',
      'message-id': '20130503182626.18666.16540@sandbox5eefc36737c54ad8a95c7125a83a76ca.mailgun.org',
      from: 'Bob <bob@sandbox5eefc36737c54ad8a95c7125a83a76ca.mailgun.org>',
      subject: 'Test permanent_fail webhook',
    },
    attachments: [],
    size: 111,
  },
  recipient: 'alice@example.com',
  'recipient-domain': 'example.com',
  storage: {
    url: 'https://se.api.mailgun.net/v3/domains/sandbox5eefc36737c54ad8a95c7125a83a76ca.mailgun.org/messages/message_key',
    key: 'message_key',
  },
  campaigns: [],
  tags: ['my_tag_1', 'my_tag_2'],
  'user-variables': { my_var_1: 'Mailgun Variable #1', 'my-var-2': 'awesome' },
};

/** Postmark's bounce webhook format (https://postmarkapp.com/support/article/1106-how-to-set-up-a-bounce-webhook). */
export const POSTMARK_BOUNCE = `{
 "RecordType": "Bounce",
 "MessageStream": "transactional",
 "ID": 42,
 "Type": "HardBounce",
 "TypeCode": 1,
 "Name": "Hard bounce",
 "Tag": "Test",
 "MessageID": "883953f4-6105-42a2-a16a-77a8eac79483",
 "Metadata" : {
 "a_key" : "a_value",
 "b_key": "b_value"
 },
 "ServerID": 23,
 "Description": "The server was unable to deliver your message (ex: unknown user, mailbox not found).",
 "Details": "Test bounce details",
 "Email": "john@example.com",
 "From": "sender@example.com",
 "BouncedAt": "2019-11-05T16:33:54.9070259Z",
 "DumpAvailable": true,
 "Inactive": true,
 "CanActivate": true,
 "Subject": "Test subject",
 "Content": "<Full dump of bounce>"
}`;

/** Postmark's example delivery webhook event (https://postmarkapp.com/support/article/1067-how-do-i-enable-delivery-webhooks). */
export const POSTMARK_DELIVERY = `{ "MessageID":"a94dfe84-8ab9-43cf-8a1c-ac234c296e25", "Recipient":"recipeint@example.com", "Tag":"Your Tag", "DeliveredAt":"2016-12-01T15:41:45-05:00", "Details":"smtp;250 2.0.0 OK 1480624905 l186si10190883ite.73- gsmtp" }`;

/**
 * Amazon SES developer guide, "Amazon SNS notification examples for Amazon SES"
 * (https://docs.aws.amazon.com/ses/latest/dg/notification-examples.html): bounce with a DSN.
 */
export const SES_BOUNCE = `   {
       "notificationType":"Bounce",
       "bounce":{
          "bounceType":"Permanent",
          "reportingMTA":"dns; email.example.com",
          "bouncedRecipients":[
             {
                "emailAddress":"jane@example.com",
                "status":"5.1.1",
                "action":"failed",
                "diagnosticCode":"smtp; 550 5.1.1 <jane@example.com>... User"
             }
          ],
          "bounceSubType":"General",
          "timestamp":"2016-01-27T14:59:38.237Z",
          "feedbackId":"00000138111222aa-33322211-cccc-cccc-cccc-ddddaaaa068a-000000",
          "remoteMtaIp":"127.0.2.0"
       },
       "mail":{
          "timestamp":"2016-01-27T14:59:38.237Z",
          "source":"john@example.com",
          "sourceArn": "arn:aws:ses:us-west-2:888888888888:identity/example.com",
          "sourceIp": "127.0.3.0",
          "sendingAccountId":"123456789012",
          "messageId":"00000138111222aa-33322211-cccc-cccc-cccc-ddddaaaa0680-000000",
          "destination":[
            "jane@example.com",
            "mary@example.com",
            "richard@example.com"]
        }
    }`;

/** The same guide: complaint without a feedback report (headers left out, as when they are not configured). */
export const SES_COMPLAINT = `   {
      "notificationType":"Complaint",
      "complaint":{
         "complainedRecipients":[
            {
               "emailAddress":"richard@example.com"
            }
         ],
         "timestamp":"2016-01-27T14:59:38.237Z",
         "feedbackId":"0000013786031775-fea503bc-7497-49e1-881b-a0379bb037d3-000000"
      },
      "mail":{
         "timestamp":"2016-01-27T14:59:38.237Z",
         "messageId":"0000013786031775-163e3910-53eb-4c8e-a04a-f29debf88a84-000000",
         "source":"john@example.com",
         "sourceArn": "arn:aws:ses:us-west-2:888888888888:identity/example.com",
         "sourceIp": "127.0.3.0",
         "sendingAccountId":"123456789012",
         "destination":[
            "jane@example.com",
            "mary@example.com",
            "richard@example.com"
         ]
      }
   }`;

/** The same guide: delivery notification (headers left out). */
export const SES_DELIVERY = `   {
      "notificationType":"Delivery",
      "mail":{
         "timestamp":"2016-01-27T14:59:38.237Z",
         "messageId":"0000014644fe5ef6-9a483358-9170-4cb4-a269-f5dcdf415321-000000",
         "source":"john@example.com",
         "sourceArn": "arn:aws:ses:us-west-2:888888888888:identity/example.com",
         "sourceIp": "127.0.3.0",
         "sendingAccountId":"123456789012",
         "destination":[
            "jane@example.com"
         ]
       },
      "delivery":{
         "timestamp":"2016-01-27T14:59:38.237Z",
         "recipients":["jane@example.com"],
         "processingTimeMillis":546,
         "reportingMTA":"a8-70.smtp-out.amazonses.com",
         "smtpResponse":"250 ok:  Message 64111812 accepted",
         "remoteMtaIp":"127.0.2.0"
      }
   }`;

/** SparkPost's webhook ping, posted when a webhook is created or tested. */
export const SPARKPOST_PING = `[ { "msys": {} } ]`;

/** SparkPost's sample bounce event (its webhook event samples, `GET /api/v1/webhooks/events/samples?events=bounce`). */
export const SPARKPOST_BOUNCE = `[
        {
            "msys": {
                "message_event": {
                    "type": "bounce",
                    "bounce_class": "1",
                    "campaign_id": "Example Campaign Name",
                    "customer_id": "1",
                    "delv_method": "esmtp",
                    "device_token": "45c19189783f867973f6e6a5cca60061ffe4fa77c547150563a1192fa9847f8a",
                    "error_code": "554",
                    "event_id": "92356927693813856",
                    "friendly_from": "sender@example.com",
                    "ip_address": "127.0.0.1",
                    "ip_pool": "Example-Ip-Pool",
                    "message_id": "000443ee14578172be22",
                    "msg_from": "sender@example.com",
                    "msg_size": "1337",
                    "num_retries": "2",
                    "rcpt_meta": {
                        "customKey": "customValue"
                    },
                    "rcpt_tags": [
                        "male",
                        "US"
                    ],
                    "rcpt_to": "recipient@example.com",
                    "raw_rcpt_to": "recipient@example.com",
                    "rcpt_type": "cc",
                    "raw_reason": "MAIL REFUSED - IP (17.99.99.99) is in black list",
                    "reason": "MAIL REFUSED - IP (a.b.c.d) is in black list",
                    "routing_domain": "example.com",
                    "sending_ip": "127.0.0.1",
                    "sms_coding": "ASCII",
                    "sms_dst": "7876712656",
                    "sms_dst_npi": "E164",
                    "sms_dst_ton": "International",
                    "sms_src": "1234",
                    "sms_src_npi": "E164",
                    "sms_src_ton": "Unknown",
                    "subaccount_id": "101",
                    "subject": "Summer deals are here!",
                    "template_id": "templ-1234",
                    "template_version": "1",
                    "timestamp": "1454442600",
                    "transmission_id": "65832150921904138"
                }
            }
        }
]`;

/**
 * Mailjet's sample sent, bounce, blocked and spam events (https://dev.mailjet.com/email/guides/webhooks/, Event
 * types), as one grouped post (the Event API's "group events").
 */
export const MAILJET_GROUPED = `[{
  "event": "sent",
  "time": 1433333949,
  "MessageID": 19421777835146490,
  "Message_GUID": "1ab23cd4-e567-8901-2345-6789f0gh1i2j",
  "email": "api@mailjet.com",
  "mj_campaign_id": 7257,
  "mj_contact_id": 4,
  "customcampaign": "",
  "mj_message_id": "19421777835146490",
  "smtp_reply": "sent (250 2.0.0 OK 1433333948 fa5si855896wjc.199 - gsmtp)",
  "CustomID": "helloworld",
  "Payload": ""
},
{
   "event": "bounce",
   "time": 1430812195,
   "MessageID": 13792286917004336,
   "Message_GUID": "1ab23cd4-e567-8901-2345-6789f0gh1i2j",
   "email": "bounce@mailjet.com",
   "mj_campaign_id": 0,
   "mj_contact_id": 0,
   "customcampaign": "",
   "CustomID": "helloworld",
   "Payload": "",
   "blocked": false,
   "hard_bounce": true,
   "error_related_to": "recipient",
   "error": "user unknown",
   "comment": "Host or domain name not found. Name service error for name=lbjsnrftlsiuvbsren.com type=A: Host not found"
},
{
  "event": "blocked",
  "time": 1430812195,
  "MessageID": 13792286917004336,
  "Message_GUID": "1ab23cd4-e567-8901-2345-6789f0gh1i2j",
  "email": "bounce@mailjet.com",
  "mj_campaign_id": 0,
  "mj_contact_id": 0,
  "customcampaign": "",
  "CustomID": "helloworld",
  "Payload": "",
  "error_related_to": "recipient",
  "error": "user unknown"
},
{
  "event": "spam",
  "time": 1430812195,
  "MessageID": 13792286917004336,
  "Message_GUID": "1ab23cd4-e567-8901-2345-6789f0gh1i2j",
  "email": "bounce@mailjet.com",
  "mj_campaign_id": 0,
  "mj_contact_id": 0,
  "customcampaign": "",
  "CustomID": "helloworld",
  "Payload": "",
  "source": "JMRPP"
}]`;

/** Brevo's delivered event as its webhook guide shows it (https://developers.brevo.com/docs/how-to-use-webhooks). */
export const BREVO_DELIVERED = `{
  "event": "delivered",
  "email": "example@example.com",
  "id": 26224,
  "date": "YYYY-MM-DD HH:mm:ss",
  "ts": 1598634509,
  "message-id": "<xxxxxxxxxxxx.xxxxxxxxx@domain.com>",
  "ts_event": 1598034509,
  "subject": "Subject Line",
  "tag": "[\\"transactionalTag\\"]",
  "sending_ip": "185.41.28.109",
  "ts_epoch": 1598634509223,
  "tags": [
    "myFirstTransactional"
  ]
}`;
