import { createHash } from 'node:crypto';
import { failed, makeEvent, notAnOutcome, type RowOutcome } from '../delivery-event';
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
 * read and ignored, as is a type a newer PowerMTA adds. Every batch starts with the header line: the
 * columns are whatever the `record-fields` of the accounting file say, as few as the User Guide's
 * `type,timeLogged,orig,rcpt,dlvSourceIp,bounceCat`. A record is one event per message id the row names
 * (header_Message-Id, envId, jobId, or timeQueued with orig); a row naming none is known by a hash of
 * its fields, so the same row posted again is the same event.
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

/** A row's own id when it names none: the same fields give the same id, whatever batch they come in. */
function rowHash(fields: readonly string[]): string {
  const hash = createHash('sha256');
  for (const field of fields) hash.update(field.trim()).update('\u0000');
  return `row:${hash.digest('base64url').slice(0, 32)}`;
}

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
    const eventType = Object.hasOwn(TYPES, type) ? TYPES[type] : null;
    if (!eventType) return notAnOutcome(`Record type ${type}`);
    const queued = get('timeQueued');
    const orig = get('orig');
    const messageId =
      get('header_Message-Id') ??
      get('envId') ??
      get('jobId') ??
      (queued && orig ? `${queued}/${orig}` : rowHash(rec.fields));
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
