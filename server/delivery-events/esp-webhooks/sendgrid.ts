import { createPublicKey, verify, type KeyObject } from 'node:crypto';
import { ignored, makeEvent, record, str, type RowOutcome } from '../delivery-event';

/*
 * SendGrid's Event Webhook (https://www.twilio.com/docs/sendgrid/for-developers/tracking-events/event): a JSON
 * array of events, signed when "Signed Event Webhook Requests" is on: ECDSA P-256 with SHA-256 over the
 * timestamp header followed by the raw body, checked with the verification key the user pastes.
 */

export const SENDGRID_SIGNATURE_HEADER = 'x-twilio-email-event-webhook-signature';
export const SENDGRID_TIMESTAMP_HEADER = 'x-twilio-email-event-webhook-timestamp';

/** The verification key as SendGrid shows it (base64 of the DER public key) or as PEM; null when it is not a P-256 key. */
export function sendgridKey(text: string): KeyObject | null {
  try {
    const key = text.includes('BEGIN PUBLIC KEY')
      ? createPublicKey(text)
      : createPublicKey({ key: Buffer.from(text.replace(/\s+/g, ''), 'base64'), format: 'der', type: 'spki' });
    return key.asymmetricKeyType === 'ec' && key.asymmetricKeyDetails?.namedCurve === 'prime256v1' ? key : null;
  } catch {
    return null;
  }
}

/** Whether `signature` (base64 DER) is SendGrid's over the timestamp and the body exactly as received. */
export function sendgridSignatureValid(key: KeyObject, timestamp: string, signature: string, body: Buffer): boolean {
  try {
    return verify(
      'sha256',
      Buffer.concat([Buffer.from(timestamp, 'utf8'), body]),
      key,
      Buffer.from(signature, 'base64'),
    );
  } catch {
    return false;
  }
}

/** sg_message_id is the message's X-Message-Id with a per-recipient ".filter…" tail: the part before it names the message. */
function messageIdOf(event: Record<string, unknown>): string | undefined {
  const sg = str(event.sg_message_id);
  if (sg) return sg.split('.filter')[0];
  return str(event['smtp-id']);
}

/** One outcome per event of the batch. */
export function sendgridRows(events: unknown[]): RowOutcome[] {
  return events.map((item) => {
    const event = record(item);
    if (!event) return ignored('not an event object');
    const type = str(event.event) ?? '';
    const base = {
      messageId: messageIdOf(event),
      recipient: str(event.email),
      time: event.timestamp,
      sendingIp: str(event.ip),
    };
    switch (type) {
      case 'delivered':
        return makeEvent({ ...base, eventType: 'delivered', response: str(event.response) });
      case 'deferred':
        return makeEvent({ ...base, eventType: 'deferred', response: str(event.response) });
      case 'bounce': {
        // "blocked" is SendGrid's temporary refusal (a block list, a rate limit), a "bounce" the permanent one.
        const blocked = str(event.type) === 'blocked';
        return makeEvent({
          ...base,
          eventType: 'bounced',
          response: str(event.reason),
          enhanced: str(event.status),
          bounceClass: blocked ? 'soft' : null,
          category: blocked ? 'blocked' : null,
        });
      }
      case 'spamreport':
        return makeEvent({ ...base, eventType: 'complaint', sendingIp: undefined });
      case 'dropped':
        // Never sent (a suppressed or invalid address, ...): kept as dropped, never a sent message.
        return makeEvent({ ...base, eventType: 'dropped', response: str(event.reason) });
      default:
        return ignored(`${type.slice(0, 40) || 'an event without a type'} is not a delivery outcome`);
    }
  });
}
