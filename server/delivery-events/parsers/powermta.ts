import { failed, ignored, makeEvent, type RowOutcome } from '../delivery-event';
import { BatchError } from './batch-error';
import { parseCsv } from './csv';

/*
 * PowerMTA accounting records (CSV, RFC 4180): the first line is the file's header naming the
 * columns, and the first column is always the record type:
 *
 *
 * type,timeLogged,timeQueued,orig,rcpt,orcpt,dsnAction,dsnStatus,dsnDiag,dsnMta,bounceCat,...,dlvSourceIp,...,jobId,envId,header_Message-Id   d,2024-01-15 10:23:45+0000,2024-01-15 10:23:44+0000,news@mail.example.com,ann@gmail.com,,relayed,2.0.0 (success),smtp;250 2.0.0 OK ...
 *
 * d (delivered) is a delivery, b (bounced) and rb (remote bounce) a bounce, t (transient) a deferral,
 * f (feedback loop) a complaint; r (received), tq (queue-level transient) and rs (remote status) are
 * read and ignored. Every batch starts with the header line: the columns are whatever the
 * `record-fields` of the accounting file say.
 */

const TYPES: Record<string, 'delivered' | 'bounced' | 'deferred' | 'complaint' | null> = {
  d: 'delivered',
  delivery: 'delivered',
  b: 'bounced',
  bounce: 'bounced',
  rb: 'bounced',
  t: 'deferred',
  transient: 'deferred',
  f: 'complaint',
  feedback: 'complaint',
  r: null,
  receipt: null,
  tq: null,
  rs: null,
};

/** The accounting CSV's data rows (header excluded, index 0 is the first record after it). */
export function parsePowerMtaCsv(text: string, now = Date.now()): RowOutcome[] {
  const records = parseCsv(text);
  const header = records.shift();
  if (!header || header.error || header.fields[0]?.trim().toLowerCase() !== 'type') {
    throw new BatchError(
      'The first line must be the accounting file’s header, starting with "type" (type,timeLogged,orig,rcpt,...)',
    );
  }
  const columns = new Map(header.fields.map((name, i) => [name.trim().toLowerCase(), i]));
  return records.map((rec) => {
    if (rec.error) return failed(rec.error);
    const get = (name: string) => {
      const i = columns.get(name.toLowerCase());
      const value = i === undefined ? undefined : rec.fields[i]?.trim();
      return value === '' ? undefined : value;
    };
    const type = (rec.fields[0] ?? '').trim().toLowerCase();
    if (!(type in TYPES)) return failed(`Unknown record type "${type.slice(0, 20)}"`);
    const eventType = TYPES[type];
    if (!eventType) return ignored(`Record type ${type} is not a delivery outcome`);
    const queued = get('timeQueued');
    const orig = get('orig');
    const messageId =
      get('header_Message-Id') ?? get('envId') ?? get('jobId') ?? (queued && orig ? `${queued}/${orig}` : undefined);
    if (!messageId)
      return failed('No message id: add header_Message-Id (or envId, jobId, timeQueued and orig) to the record-fields');
    const seconds = Number(get('totalSecondsQueued'));
    return makeEvent({
      messageId: messageId.replace(/^<(.*)>$/, '$1'),
      recipient: get('rcpt') ?? get('orcpt') ?? get('origRcpt') ?? get('header_To'),
      eventType,
      response: get('dsnDiag')?.replace(/^smtp;\s*/i, ''),
      enhanced: get('dsnStatus'),
      sender: orig,
      sendingIp: get('dlvSourceIp'),
      time: get('timeLogged'),
      now,
      deliveryTimeMs: eventType === 'delivered' && Number.isFinite(seconds) ? seconds * 1000 : null,
      category: get('bounceCat') ?? null,
    });
  });
}
