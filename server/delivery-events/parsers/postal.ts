import { failed, ignored, makeEvent, notAnOutcome, record, str, type RowOutcome } from '../delivery-event';
import type { JsonRecord } from './json-records';

/*
 * Postal webhooks (https://docs.postalserver.io/developer/webhooks): each request is one event,
 *
 *   {"event":"MessageSent","timestamp":1477945177.13,"uuid":"...","payload":{"status":"Sent",
 *    "details":"Message sent by SMTP to aspmx.l.google.com (2a00:1450:400c:c0b::1b) (from 2a00:67a0:a:15::2)",
 *    "output":"250 2.0.0 OK 1477944899 ly2si31746747wjb.95 - gsmtp","sent_with_ssl":true,"timestamp":1477945177.12994,
 *    "message":{"id":12345,"token":"abcdef123","direction":"outgoing","message_id":"5817a64332f44_...@app34.mail",
 *    "to":"test@example.com","from":"sales@awesomeapp.com",...}}}
 *
 * MessageSent is a delivery, MessageDelayed a deferral, MessageDeliveryFailed and MessageBounced
 * bounces (the latter an asynchronous one, about `original_message`). A bare payload (the shape the
 * documentation shows) is read by its status: Sent, SoftFail, HardFail. Other events (held messages,
 * clicks, DNS errors, send limits, and any a newer Postal adds) are read and ignored. The message id is the Message-ID header,
 * the same on the sent, delayed, failed and bounced events of a message.
 */

const BY_EVENT: Record<string, 'delivered' | 'bounced' | 'deferred' | null> = {
  MessageSent: 'delivered',
  MessageDelayed: 'deferred',
  MessageDeliveryFailed: 'bounced',
  MessageBounced: 'bounced',
  MessageHeld: null,
  MessageLinkClicked: null,
  MessageLoaded: null,
  DomainDNSError: null,
  SendLimitApproaching: null,
  SendLimitExceeded: null,
};
const BY_STATUS: Record<string, 'delivered' | 'bounced' | 'deferred' | null> = {
  Sent: 'delivered',
  SoftFail: 'deferred',
  HardFail: 'bounced',
  Held: null,
};

/** "... (from 2a00:67a0:a:15::2)": the address Postal sent from. */
function sourceAddress(details: string | undefined): string | undefined {
  if (!details || details.length > 2000) return undefined;
  return /\(from ([0-9A-Fa-f:.]{2,45})\)/.exec(details)?.[1];
}

export function parsePostalRecords(records: readonly JsonRecord[], now = Date.now()): RowOutcome[] {
  return records.map((item) => {
    if ('error' in item) return failed(item.error);
    const rec = record(item.value);
    if (!rec) return failed('Not a Postal webhook (expected a JSON object)');
    const name = str(rec.event);
    if (name && !Object.hasOwn(BY_EVENT, name)) return notAnOutcome(name);
    const payload = name ? record(rec.payload) : rec;
    if (!payload) return failed('No payload');
    let eventType: 'delivered' | 'bounced' | 'deferred' | null;
    if (name) eventType = BY_EVENT[name];
    else {
      const status = str(payload.status);
      if (!status || !Object.hasOwn(BY_STATUS, status))
        return failed('Neither an event name nor a message status (Sent, SoftFail, HardFail)');
      eventType = BY_STATUS[status];
    }
    if (!eventType) return ignored(`${name ?? str(payload.status)} is not a delivery outcome`);
    const bounced = name === 'MessageBounced';
    const message = record(bounced ? payload.original_message : payload.message);
    if (!message) return failed(bounced ? 'No original_message' : 'No message');
    if (str(message.direction) === 'incoming') return ignored('An incoming message, not sending');
    const bounce = record(payload.bounce);
    return makeEvent({
      messageId: str(message.message_id) ?? str(message.token) ?? str(message.id),
      recipient: str(message.to),
      eventType,
      response: bounced
        ? bounce
          ? `Bounce received from ${str(bounce.from) ?? 'the receiving server'}: ${str(bounce.subject) ?? ''}`
          : null
        : (str(payload.output) ?? str(payload.details)),
      sender: str(message.from) ?? null,
      sendingIp: sourceAddress(str(payload.details)),
      time: bounced ? (bounce?.timestamp ?? rec.timestamp) : (payload.timestamp ?? rec.timestamp),
      now,
    });
  });
}
