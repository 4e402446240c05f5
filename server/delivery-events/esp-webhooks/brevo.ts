import { ignored, makeEvent, record, str, type RowOutcome } from '../delivery-event';

/*
 * Brevo's transactional webhooks (https://developers.brevo.com/docs/how-to-use-webhooks): one event a POST, named by
 * `event`, authenticated by the basic-auth credentials set on the webhook (basic-auth.ts) or the secret URL alone.
 */

export function brevoRow(item: unknown): RowOutcome {
  const event = record(item);
  if (!event) return ignored('not an event object');
  const type = str(event.event) ?? '';
  const base = {
    messageId: str(event['message-id']),
    recipient: str(event.email),
    // ts_epoch is milliseconds; ts_event and ts are seconds, as older posts carry them.
    time: event.ts_epoch ?? event.ts_event ?? event.ts,
    sendingIp: str(event.sending_ip),
    response: str(event.reason),
  };
  switch (type) {
    case 'delivered':
      return makeEvent({ ...base, eventType: 'delivered' });
    case 'deferred':
      return makeEvent({ ...base, eventType: 'deferred' });
    case 'hard_bounce':
      return makeEvent({ ...base, eventType: 'bounced', bounceClass: 'hard' });
    case 'soft_bounce':
      return makeEvent({ ...base, eventType: 'bounced', bounceClass: 'soft' });
    case 'spam':
    case 'complaint':
      return makeEvent({ ...base, eventType: 'complaint', sendingIp: undefined, response: null });
    case 'blocked':
    case 'invalid_email':
    case 'error':
      // Never sent by Brevo: kept as dropped, with Brevo's reason (or the event's name when it gives none).
      return makeEvent({ ...base, eventType: 'dropped', response: base.response ?? type });
    default:
      return ignored(`${type.slice(0, 40) || 'an event without a type'} is not a delivery outcome`);
  }
}
