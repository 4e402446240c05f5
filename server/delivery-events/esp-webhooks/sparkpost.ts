import type { BounceClass } from '@contracts/delivery-events';
import { ignored, makeEvent, record, str, type RowOutcome } from '../delivery-event';

/*
 * SparkPost's webhooks (https://developers.sparkpost.com/api/webhooks/): a JSON array of `{ msys: { <class>_event:
 * {...} } }`, authenticated by the basic-auth credentials set on the webhook (basic-auth.ts) or the secret URL alone.
 * Its ping is `[{ "msys": {} }]`.
 */

/**
 * SparkPost's bounce classification codes (https://support.sparkpost.com/docs/deliverability/bounce-classification-codes)
 * by its categories: Hard, Block (kept apart as a soft bounce with its category), Soft, and those that are no bounce of
 * a sent message (auto-replies, subscribe and unsubscribe requests, challenges). Admin failures (25) are SparkPost's
 * own policy refusing to send: dropped.
 */
const HARD = new Set(['10', '30', '90']);
const BLOCK = new Set(['50', '51', '52', '53', '54']);
const SOFT = new Set(['20', '21', '22', '23', '24', '40', '70']);
const ADMIN_FAILURE = '25';
const NOT_A_BOUNCE = new Set(['26', '60', '80', '100']);

function bounceClassOf(code: string): { bounceClass: BounceClass | null; category: string | null } | null {
  if (NOT_A_BOUNCE.has(code)) return null;
  if (HARD.has(code)) return { bounceClass: 'hard', category: null };
  if (BLOCK.has(code)) return { bounceClass: 'soft', category: 'blocked' };
  return { bounceClass: SOFT.has(code) ? 'soft' : null, category: null };
}

function sparkpostRow(item: unknown): RowOutcome {
  const msys = record(record(item)?.msys);
  const event = record(msys?.message_event);
  if (!event) return ignored(`${Object.keys(msys ?? {})[0]?.slice(0, 40) ?? 'a ping'} is not a delivery outcome`);
  const type = str(event.type) ?? '';
  const base = {
    messageId: str(event.message_id),
    recipient: str(event.rcpt_to),
    time: event.timestamp,
    sender: str(event.msg_from),
    sendingIp: str(event.sending_ip),
    response: str(event.raw_reason) ?? str(event.reason),
    code: Number(str(event.error_code)) || null,
  };
  switch (type) {
    case 'delivery':
      return makeEvent({ ...base, eventType: 'delivered' });
    case 'delay':
      return makeEvent({ ...base, eventType: 'deferred' });
    case 'bounce':
    case 'out_of_band': {
      const code = str(event.bounce_class) ?? '';
      // Class 25, Admin Failure: SparkPost's own policy (a suppression list) failed it; it was never sent.
      if (code === ADMIN_FAILURE) return makeEvent({ ...base, eventType: 'dropped' });
      const kind = bounceClassOf(code);
      if (!kind) return ignored(`bounce class ${code.slice(0, 10)} is not a bounce of a sent message`);
      return makeEvent({ ...base, eventType: 'bounced', ...kind });
    }
    case 'spam_complaint':
      return makeEvent({ ...base, eventType: 'complaint', sendingIp: undefined, response: null, code: null });
    case 'policy_rejection':
    case 'generation_failure':
    case 'generation_rejection':
      // Refused by SparkPost before sending: kept as dropped, with its reason (or the event's name).
      return makeEvent({ ...base, eventType: 'dropped', response: base.response ?? type });
    default:
      return ignored(`${type.slice(0, 40) || 'an event without a type'} is not a delivery outcome`);
  }
}

export const sparkpostRows = (events: unknown[]): RowOutcome[] => events.map(sparkpostRow);
