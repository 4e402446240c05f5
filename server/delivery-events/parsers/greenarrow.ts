import { failed, ignored, makeEvent, notAnOutcome, record, str, type RowOutcome } from '../delivery-event';
import type { JsonRecord } from './json-records';

/*
 * GreenArrow Engine's Event Notification System, delivering events over HTTP POST as JSON
 * (use_json_for_http_post), one event a request:
 *
 *   {"id":"1021","event_type":"delivery_attempt","event_time":1705314225,"email":"ann@gmail.com",
 *    "listid":"a1","sendid":"spring-sale-0115","channel":"remote","status":"success","is_retry":0,
 *    "msguid":"1705314224.2145.mta1","sender":"bounce@mail.example.com","outmtaid_ip":"203.0.113.10",
 *    "mx_hostname":"gmail-smtp-in.l.google.com","message":"142.250.102.27 accepted message. Remote host said: 250 2.0.0
 * OK ..."}
 *
 *   {"id":"1022","event_type":"bounce_all","event_time":1705314290,"email":"bob@example.org","listid":"a1",
 *    "sendid":"spring-sale-0115","bounce_type":"h","bounce_code":10,"bounce_text":"... Remote host said: 550 5.1.1
 * ..."}
 *
 * delivery_attempt: success is a delivery, failure a hard bounce, failure_toolong (too long in the
 * queue) a soft bounce, deferral a deferral; connmaxout (held back by a throttle) is ignored.
 * bounce_all with bounce_type h or s is a hard or soft bounce (o, other, is ignored), and so is
 * hook_stat, the bounce processor's record in configurations older than the Event Notification System
 * (form fields, bounce_message and bounce_time); scomp (hook_scomp) is a
 * spam complaint. Other events (opens, clicks, unsubscribes, bounce_bad_address, studio_*) are read
 * and ignored. GreenArrow names a message by its list and SendID, so that is the message id: the
 * failed delivery attempt and the bounce_all event of the same message are one bounce.
 */

const ATTEMPT_STATUS: Record<string, 'delivered' | 'bounced' | 'deferred' | null> = {
  success: 'delivered',
  failure: 'bounced',
  failure_toolong: 'bounced',
  deferral: 'deferred',
  connmaxout: null,
};

export function parseGreenArrowRecords(records: readonly JsonRecord[], now = Date.now()): RowOutcome[] {
  return records.map((item) => {
    if ('error' in item) return failed(item.error);
    const rec = record(item.value);
    if (!rec) return failed('Not a GreenArrow event (expected a JSON object)');
    const type = str(rec.event_type);
    if (!type) return failed('No event_type');
    let eventType: 'delivered' | 'bounced' | 'deferred' | 'complaint';
    let bounceClass: 'hard' | 'soft' | null = null;
    let response: string | undefined;
    if (type === 'delivery_attempt') {
      const status = str(rec.status) ?? '';
      if (!Object.hasOwn(ATTEMPT_STATUS, status)) return notAnOutcome(`Delivery status ${status}`);
      const mapped = ATTEMPT_STATUS[status];
      if (!mapped) return ignored('Held back by a throttle (connmaxout): no attempt was made');
      eventType = mapped;
      if (status === 'failure_toolong') bounceClass = 'soft';
      response = str(rec.message);
    } else if (type === 'bounce_all' || type === 'hook_stat') {
      const kind = str(rec.bounce_type);
      if (kind === 'o') return ignored('A bounce of type "other" (an auto-reply or challenge), not a delivery failure');
      if (kind !== 'h' && kind !== 's') return notAnOutcome(`Bounce type ${String(kind)}`);
      eventType = 'bounced';
      bounceClass = kind === 'h' ? 'hard' : 'soft';
      response = str(rec.bounce_text) ?? str(rec.bounce_message);
    } else if (type === 'scomp' || type === 'hook_scomp') {
      eventType = 'complaint';
    } else return notAnOutcome(type);
    const sendid = str(rec.sendid);
    const messageId = sendid ? `${str(rec.listid) ?? ''}:${sendid}` : str(rec.msguid);
    return makeEvent({
      messageId,
      recipient: str(rec.email),
      eventType,
      response,
      bounceClass,
      sender: str(rec.sender) ?? null,
      sendingIp: str(rec.outmtaid_ip),
      time: rec.event_time ?? rec.bounce_time,
      now,
    });
  });
}
