import { failed, ignored, makeEvent, record, str, type RowOutcome } from '../delivery-event';
import type { JsonRecord } from './json-records';

/*
 * The Postfix queue as `postqueue -j` prints it (Postfix 3.1 and later): one JSON object per
 * queued message,
 *
 *   {"queue_name":"deferred","queue_id":"3F1A2B4C5D","arrival_time":1705314225,"message_size":2314,
 *    "forced_expire":false,"sender":"news@mail.example.com","recipients":[{"address":"bob@example.org",
 *    "delay_reason":"connect to mx.example.org[192.0.2.25]:25: Connection timed out"}]}
 *
 * A recipient with a delay_reason was deferred: it becomes a deferred event (the queue id is the
 * message id, as in the log, so the same deferral shipped from the log and seen in the queue counts
 * once). The snapshot is also summed: messages and recipients per queue, and the oldest arrival.
 */

export interface QueueSnapshot {
  messages: number;
  recipients: number;
  byQueue: Record<string, number>;
  oldestArrival: Date | null;
  /** One row per message of the snapshot (index = its line), then the deferred recipients' events. */
  rows: RowOutcome[];
}

const QUEUES = new Set(['maildrop', 'incoming', 'active', 'deferred', 'hold', 'corrupt']);

export function readPostqueue(records: readonly JsonRecord[], now = Date.now()): QueueSnapshot {
  const snapshot: QueueSnapshot = { messages: 0, recipients: 0, byQueue: {}, oldestArrival: null, rows: [] };
  records.forEach((item) => {
    if ('error' in item) return void snapshot.rows.push(failed(item.error));
    const rec = record(item.value);
    const queue = str(rec?.queue_name);
    const queueId = str(rec?.queue_id);
    if (!rec || !queue || !QUEUES.has(queue) || !queueId)
      return void snapshot.rows.push(failed('Not a line of postqueue -j (queue_name, queue_id, recipients)'));
    const recipients = Array.isArray(rec.recipients) ? rec.recipients.map(record).filter((r) => r !== undefined) : [];
    snapshot.messages++;
    snapshot.recipients += recipients.length;
    snapshot.byQueue[queue] = (snapshot.byQueue[queue] ?? 0) + 1;
    const arrival = typeof rec.arrival_time === 'number' ? new Date(rec.arrival_time * 1000) : null;
    if (arrival && !Number.isNaN(arrival.getTime()) && (!snapshot.oldestArrival || arrival < snapshot.oldestArrival))
      snapshot.oldestArrival = arrival;
    const delayed = recipients.filter((r) => str(r.delay_reason));
    if (delayed.length === 0) return void snapshot.rows.push(ignored('No deferred recipient'));
    for (const r of delayed) {
      snapshot.rows.push(
        makeEvent({
          messageId: queueId,
          recipient: str(r.address),
          eventType: 'deferred',
          response: str(r.delay_reason),
          sender: str(rec.sender) ?? null,
          // The queue says when the message arrived, not when it was last tried: the snapshot's time.
          time: now,
          now,
        }),
      );
    }
  });
  return snapshot;
}
