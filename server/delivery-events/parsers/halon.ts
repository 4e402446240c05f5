import { failed, ignored, makeEvent, notAnOutcome, record, str, type RowOutcome } from '../delivery-event';
import type { JsonRecord } from './json-records';

/*
 * Halon delivery events: what the post-delivery hook posts with json_encode() through Halon's HTTP
 * plugins (http-bulk, NDJSON), one record per delivery attempt, built as
 * ["type" => "delivery", "time" => round(time() * 1000), "message" => $message, ...$arguments]:
 *
 *   {"type":"delivery","time":1705314225123,"retry":0,
 *    "message":{"id":{"transaction":"18c190a3-93f7-47d7-bd6c-1ae87c9d8e52","queue":1},"sender":"news@mail.example.com",
 *               "recipient":"ann@gmail.com","transportid":"mailtransport:1",...},
 *    "attempt":{"result":{"code":250,"enhanced":[2,0,0],"reason":["OK 1705314225 - gsmtp"],"state":"EOD"},
 *
 * "connection":{"localip":"203.0.113.10","remoteip":"142.250.102.27","remotemx":"gmail-smtp-in.l.google.com"},"duration":0.84}}
 *
 * No "action" and a 2xx answer: delivered. "QUEUE": deferred (another attempt follows). "BOUNCE": a
 * bounce. "DELETE" after a permanent failure: a bounce too; a message deleted otherwise is ignored.
 * Records of another "type" (queue, arf, ...) are read and ignored. The message id is the
 * transaction id, the same on every attempt.
 */

function responseOf(attempt: Record<string, unknown> | undefined): {
  text: string | null;
  code: number | null;
  enhanced: string | null;
  permanent: boolean | null;
} {
  const result = record(attempt?.result);
  if (result) {
    const code = typeof result.code === 'number' ? result.code : null;
    const e =
      Array.isArray(result.enhanced) &&
      result.enhanced.length === 3 &&
      result.enhanced.every((n) => typeof n === 'number')
        ? result.enhanced.join('.')
        : null;
    const reason = Array.isArray(result.reason)
      ? result.reason.map((r) => str(r) ?? '').join(' ')
      : (str(result.reason) ?? '');
    const text = [code, e, reason].filter((part) => part !== null && part !== '').join(' ');
    return { text: text || null, code, enhanced: e, permanent: code !== null ? code >= 500 : null };
  }
  const error = record(attempt?.error);
  if (error) {
    const temporary = error.temporary;
    return {
      text: str(error.message) ?? str(error.reason) ?? null,
      code: null,
      enhanced: null,
      permanent: typeof temporary === 'boolean' ? !temporary : null,
    };
  }
  return { text: null, code: null, enhanced: null, permanent: null };
}

function recipientOf(message: Record<string, unknown>): string | undefined {
  const plain = str(message.recipient);
  if (plain) return plain;
  const a = record(message.recipientaddress);
  return a && str(a.localpart) && str(a.domain) ? `${str(a.localpart)}@${str(a.domain)}` : undefined;
}

function messageIdOf(message: Record<string, unknown>): string | undefined {
  const id = message.id;
  return str(id) ?? str(record(id)?.transaction);
}

export function parseHalonRecords(records: readonly JsonRecord[], now = Date.now()): RowOutcome[] {
  return records.map((item) => {
    if ('error' in item) return failed(item.error);
    const rec = record(item.value);
    if (!rec) return failed('Not a Halon delivery record (expected a JSON object)');
    const type = str(rec.type);
    if (type !== undefined && type !== 'delivery')
      return ignored(`A ${type.slice(0, 30)} record, not a delivery attempt`);
    const message = record(rec.message);
    if (!message) return failed('No message');
    const attempt = record(rec.attempt);
    const action = str(rec.action)?.toUpperCase();
    const response = responseOf(attempt);
    let eventType: 'delivered' | 'bounced' | 'deferred';
    if (action === undefined) {
      if (response.code === null || response.code >= 300) return failed('No action and no 2xx answer: not a delivery');
      eventType = 'delivered';
    } else if (action === 'QUEUE') eventType = 'deferred';
    else if (action === 'BOUNCE') eventType = 'bounced';
    else if (action === 'DELETE') {
      if (response.permanent !== true) return ignored('Deleted from the queue without a permanent failure');
      eventType = 'bounced';
    } else return notAnOutcome(`Action ${action}`);
    const connection = record(attempt?.connection);
    const duration = typeof attempt?.duration === 'number' ? attempt.duration : null;
    return makeEvent({
      messageId: messageIdOf(message),
      recipient: recipientOf(message),
      eventType,
      response: response.text,
      code: response.code,
      enhanced: response.enhanced,
      // Bounced after temporary failures only (retries used up, or too old): a soft bounce.
      bounceClass: eventType === 'bounced' && response.permanent === false ? 'soft' : null,
      sender: str(message.sender) ?? null,
      sendingIp: str(connection?.localip),
      time: rec.time ?? rec.ts,
      now,
      deliveryTimeMs: eventType === 'delivered' && duration !== null ? Math.round(duration * 1000) : null,
    });
  });
}
