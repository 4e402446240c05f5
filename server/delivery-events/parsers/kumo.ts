import { failed, makeEvent, notAnOutcome, record, str, type DeliveryEvent, type RowOutcome } from '../delivery-event';
import type { JsonRecord } from './json-records';

/*
 * KumoMTA log records, as a log hook posts them (https://docs.kumomta.com/reference/log_record/):
 *
 *   {"type":"Delivery","id":"1d98076abbbc11ed940250ebf67f93bd","sender":"news@mail.example.com",
 *    "recipient":"ann@gmail.com","site":"...gmail-smtp-in.l.google.com.","response":{"code":250,
 *    "enhanced_code":{"class":2,"subject":0,"detail":0},"content":"OK ...","command":"."},
 *    "source_address":{"address":"203.0.113.10:53210"},"timestamp":1705314225,"created":1705314224, ...}
 *
 * Delivery is a delivery; Bounce, Expiration and OOB (an out-of-band bounce report) are bounces;
 * TransientFailure is a deferral; Feedback (an ARF report) is a complaint about the recipient the
 * report names. Reception, Rejection, Delay and AdminBounce are read and ignored, as is a type a newer
 * version adds. The message id is KumoMTA's spool id, the same on every record of the message. With
 * batch_handling="BatchByDomain" a record's `recipient` is a list: the outcome is each recipient's.
 */

const TYPES: Record<string, 'delivered' | 'bounced' | 'deferred' | 'complaint' | null> = {
  Delivery: 'delivered',
  Bounce: 'bounced',
  Expiration: 'bounced',
  OOB: 'bounced',
  TransientFailure: 'deferred',
  Feedback: 'complaint',
  Reception: null,
  Rejection: null,
  Delay: null,
  AdminBounce: null,
};

function enhancedOf(value: unknown): string | null {
  const e = record(value);
  if (!e) return null;
  const [c, s, d] = [e.class, e.subject, e.detail];
  return typeof c === 'number' && typeof s === 'number' && typeof d === 'number' ? `${c}.${s}.${d}` : null;
}

/** The first address of a recipient field: a string, or a list of them (newer KumoMTA versions). */
function firstAddress(value: unknown): string | undefined {
  if (Array.isArray(value)) return str(value[0]);
  return str(value);
}

/** The recipient an ARF report complains about: the original RCPT TO, the decoded trace header, or the removal recipient. */
function complainant(report: Record<string, unknown> | undefined): string | undefined {
  if (!report) return undefined;
  const rcpt = firstAddress(report.original_rcpto_to) ?? firstAddress(report.original_rcpt_to);
  if (rcpt) return rcpt;
  const trace = record(report.supplemental_trace);
  if (trace) return str(trace.recipient);
  return firstAddress(record(report.extensions)?.['removal-recipient']);
}

export function parseKumoRecords(records: readonly JsonRecord[], now = Date.now()): RowOutcome[] {
  return records.map((item) => {
    if ('error' in item) return failed(item.error);
    const rec = record(item.value);
    if (!rec) return failed('Not a KumoMTA log record (expected a JSON object)');
    const type = str(rec.type);
    if (!type) return failed('No record type');
    const eventType = Object.hasOwn(TYPES, type) ? TYPES[type] : null;
    if (!eventType) return notAnOutcome(type);
    const response = record(rec.response);
    const code = typeof response?.code === 'number' ? response.code : null;
    const enhanced = enhancedOf(response?.enhanced_code);
    const content = str(response?.content) ?? '';
    const text = code !== null ? [code, enhanced, content].filter(Boolean).join(' ') : content;
    const report = record(rec.feedback_report);
    const trace = record(report?.supplemental_trace);
    const timestamp = rec.timestamp;
    const created = typeof rec.created === 'number' ? rec.created : null;
    const classification = str(rec.bounce_classification);
    const recipients = eventType === 'complaint' ? [complainant(report)] : recipientsOf(rec.recipient);
    const outcomes = recipients.map((recipient) =>
      makeEvent({
        messageId: eventType === 'complaint' ? (str(trace?.id) ?? str(rec.id)) : str(rec.id),
        recipient,
        eventType,
        response: text,
        code,
        enhanced,
        // An expired message was only ever deferred: it bounces, but softly, whatever the last answer said.
        bounceClass: type === 'Expiration' ? 'soft' : null,
        sender:
          eventType === 'complaint'
            ? (str(report?.original_mail_from)?.replace(/^<(.*)>$/, '$1') ?? null)
            : (str(rec.sender) ?? null),
        sendingIp: str(record(rec.source_address)?.address),
        time: timestamp,
        now,
        deliveryTimeMs:
          eventType === 'delivered' && typeof timestamp === 'number' && created !== null
            ? Math.max(0, (timestamp - created) * 1000)
            : null,
        category: classification && classification !== 'Uncategorized' ? classification : null,
      }),
    );
    return oneRow(outcomes);
  });
}

/** The recipients of a record: one address, or the list a batched record names. */
function recipientsOf(value: unknown): (string | undefined)[] {
  return Array.isArray(value) && value.length > 0 ? value.map(str) : [str(value)];
}

/** A record's outcomes as its one row: its event(s), or the first recipient that could not be read (nothing of it is kept). */
function oneRow(outcomes: RowOutcome[]): RowOutcome {
  if (outcomes.length === 1) return outcomes[0];
  const events: DeliveryEvent[] = [];
  for (const [i, outcome] of outcomes.entries()) {
    if ('error' in outcome) return failed(`Recipient ${i + 1}: ${outcome.error}`);
    if ('event' in outcome) events.push(outcome.event);
  }
  return { events };
}
