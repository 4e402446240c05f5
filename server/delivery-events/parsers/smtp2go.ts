import { failed, makeEvent, notAnOutcome, record, str, type RowOutcome } from '../delivery-event';
import type { JsonRecord } from './json-records';

/*
 * SMTP2GO webhooks (Settings > Webhooks): one POST per event, form-encoded or JSON, with
 *
 *   event=delivered|bounce|spam|processed|open|click|unsubscribe|resubscribe|reject, time, sendtime,
 *   sender (envelope from), from, rcpt, recipients, auth, host (the server that bounced it), message
 *   (the server's answer), context, email_id, bounce=hard|soft (bounces), subject, ...
 *
 * (https://developers.smtp2go.com/docs/webhooks-overview). delivered is a delivery, bounce a bounce
 * (SMTP2GO says hard or soft), spam a complaint, and so is spam_complaint, the name newer callbacks
 * give it. The others (processed, opens and clicks, opened among them, unsubscribes, rejects) and any
 * event a newer SMTP2GO adds are read and ignored: InboxPulse keeps no per-message engagement. The
 * message id is SMTP2GO's email_id.
 */

const EVENTS: Record<string, 'delivered' | 'bounced' | 'complaint'> = {
  delivered: 'delivered',
  bounce: 'bounced',
  spam: 'complaint',
  spam_complaint: 'complaint',
};

export function parseSmtp2goRecords(records: readonly JsonRecord[], now = Date.now()): RowOutcome[] {
  return records.map((item) => {
    if ('error' in item) return failed(item.error);
    const rec = record(item.value);
    if (!rec) return failed('Not an SMTP2GO webhook (expected a JSON object or form fields)');
    const name = str(rec.event)?.toLowerCase();
    if (!name) return failed('No event');
    const eventType = Object.hasOwn(EVENTS, name) ? EVENTS[name] : null;
    if (!eventType) return notAnOutcome(name);
    const bounce = str(rec.bounce)?.toLowerCase();
    return makeEvent({
      messageId: str(rec.email_id) ?? str(rec['message-id']) ?? str(rec.message_id),
      recipient: str(rec.rcpt) ?? str(rec.recipient),
      eventType,
      response: str(rec.message) ?? str(rec.context),
      bounceClass: eventType === 'bounced' && (bounce === 'hard' || bounce === 'soft') ? bounce : null,
      sender: str(rec.sender) ?? str(rec.from) ?? null,
      time: rec.time ?? rec.sendtime,
      now,
    });
  });
}
