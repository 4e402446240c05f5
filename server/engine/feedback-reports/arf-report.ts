import { createHash } from 'node:crypto';
import { isIP } from 'node:net';
import {
  allParts,
  contentTypeOf,
  decodedBody,
  fieldValue,
  fieldValues,
  readEntity,
  utf8,
  type MimeEntity,
} from './mime-parts';

/*
 * A complaint feedback loop's report (ARF, RFC 5965): the machine-readable part (message/feedback-report) and
 * the headers of the original message it is about (message/rfc822 or text/rfc822-headers, the third part).
 * Microsoft's JMRP long sent no ARF part, only the original attached: what such a report carries is read from the
 * original's headers, and the report says what it could not read. Pure: no I/O.
 */

/** A report is a few KB; one with the whole original (images and all) stays well under this. */
export const MAX_REPORT_BYTES = 2 * 1024 * 1024;

export interface OriginalHeaders {
  /** The From address, lower-cased. */
  from: string | null;
  fromDomain: string | null;
  /** Message-ID without its angle brackets. */
  messageId: string | null;
  date: Date | null;
  /** The d= of each DKIM-Signature, lower-cased. */
  dkimDomains: string[];
  /** The recipient as the original names it: JMRP's X-HmXmrOriginalRecipient, else a To with one address. */
  recipient: string | null;
}

export interface FeedbackLoopReport {
  /** Whether the mail had a message/feedback-report part; without one, only the original's headers were read. */
  hasArfPart: boolean;
  /** Lower-cased: abuse, fraud, virus, other, not-spam (RFC 5965 section 7.3), auth-failure (RFC 6591). */
  feedbackType: string | null;
  userAgent: string | null;
  version: string | null;
  /** The envelope sender of the original, lower-cased, without <>. */
  originalMailFrom: string | null;
  originalRcptTo: string[];
  /** Arrival-Date; Received-Date, which the ARF drafts used and AOL and Yahoo still wrote, when it is absent. */
  arrivalDate: Date | null;
  sourceIp: string | null;
  reportedDomains: string[];
  reportedUris: string[];
  /** Original-Message-ID, which some loops (Fastmail through Validity) write into the ARF part. */
  originalMessageId: string | null;
  original: OriginalHeaders | null;
  /** The report mail's own From address, lower-cased: who says it sent the report. */
  reportFrom: string | null;
  /** A stable digest of what the report says about the message, for a complaint that names no Message-ID. */
  digest: string;
  /** What could not be read, in words. */
  notes: string[];
}

const DOMAIN = /^(?=.{1,253}$)[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?(?:\.[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?)+$/;
const ADDRESS = /^[^\s@<>"]{1,64}@[a-z0-9.-]{1,253}$/;

const ORIGINAL_TYPES = new Set(['message/rfc822', 'text/rfc822-headers']);

/**
 * Whether a mail is a feedback loop's complaint: an ARF report (multipart/report; report-type=feedback-report) whose
 * Feedback-Type is not auth-failure, the DMARC failure reports that go to the DMARC report mailbox. The header
 * block is read first, so a large mail that is no report costs that alone. A complaint without an ARF part
 * (Microsoft's JMRP attaching only the original) cannot be told from other mail and is not one here.
 */
export function isComplaintReport(raw: Uint8Array): boolean {
  const head = Buffer.from(raw.buffer, raw.byteOffset, Math.min(raw.byteLength, 64 * 1024)).toString('latin1');
  const { type, params } = contentTypeOf(readEntity(head));
  if (type !== 'multipart/report' || params['report-type']?.toLowerCase() !== 'feedback-report') return false;
  if (raw.byteLength > MAX_REPORT_BYTES) return false;
  const report = readFeedbackLoopReport(raw);
  return report.hasArfPart && report.feedbackType !== 'auth-failure';
}

export function readFeedbackLoopReport(raw: Uint8Array): FeedbackLoopReport {
  const message = readEntity(Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength).toString('latin1'));
  const parts = allParts(message);
  const arfPart = parts.find((part) => contentTypeOf(part).type === 'message/feedback-report');
  const arf = arfPart ? readEntity(decodedBody(arfPart)) : null;
  const originalPart = parts.find((part) => ORIGINAL_TYPES.has(contentTypeOf(part).type));
  const original = originalPart ? readOriginal(readEntity(decodedBody(originalPart))) : null;
  const notes: string[] = [];
  if (!arf)
    notes.push(
      original
        ? 'It has no ARF part (message/feedback-report): only the headers of the original message it carries were read.'
        : 'It has no ARF part (message/feedback-report) and carries no original message to read.',
    );
  else if (!original) notes.push('It carries no original message (message/rfc822 or text/rfc822-headers).');

  const one = (name: string) => (arf ? text(fieldValue(arf, name)) : null);
  const all = (name: string) => (arf ? fieldValues(arf, name).map((v) => utf8(v).trim()) : []);
  const sourceIp = one('source-ip');
  const arrival = one('arrival-date') ?? one('received-date');
  const arrivalTime = arrival ? Date.parse(arrival) : NaN;
  return {
    hasArfPart: arf !== null,
    feedbackType: one('feedback-type')?.toLowerCase() ?? null,
    userAgent: one('user-agent'),
    version: one('version'),
    originalMailFrom: address(one('original-mail-from')),
    originalRcptTo: all('original-rcpt-to').flatMap((value) => address(value) ?? []),
    arrivalDate: Number.isNaN(arrivalTime) ? null : new Date(arrivalTime),
    sourceIp: sourceIp && isIP(sourceIp) ? sourceIp : null,
    reportedDomains: [...new Set(all('reported-domain').flatMap((value) => domain(value) ?? []))],
    reportedUris: all('reported-uri'),
    originalMessageId: messageId(one('original-message-id')),
    original,
    reportFrom: address(text(fieldValue(message, 'from'))),
    digest: createHash('sha256')
      .update(JSON.stringify([arf?.fields ?? [], originalPart ? readEntity(decodedBody(originalPart)).fields : []]))
      .digest('hex'),
    notes,
  };
}

function readOriginal(headers: MimeEntity): OriginalHeaders {
  const from = address(text(fieldValue(headers, 'from')));
  const date = text(fieldValue(headers, 'date'));
  const time = date ? Date.parse(date) : NaN;
  const to = (text(fieldValue(headers, 'to')) ?? '').split(',').flatMap((value) => address(value) ?? []);
  return {
    from,
    fromDomain: from ? domain(from.split('@')[1]) : null,
    messageId: messageId(text(fieldValue(headers, 'message-id'))),
    date: Number.isNaN(time) ? null : new Date(time),
    dkimDomains: [
      ...new Set(
        fieldValues(headers, 'dkim-signature').flatMap(
          (signature) => domain(/(?:^|;)\s*d\s*=\s*([^;\s]+)/.exec(signature)?.[1]) ?? [],
        ),
      ),
    ],
    recipient: address(text(fieldValue(headers, 'x-hmxmroriginalrecipient'))) ?? (to.length === 1 ? to[0] : null),
  };
}

/** A field's value as UTF-8 text, trimmed; null when absent or empty. */
function text(value: string | null): string | null {
  return value === null ? null : utf8(value).trim() || null;
}

/** The address in `"Name" <local@domain>`, `<local@domain>` or `local@domain`, lower-cased; null when there is none. */
function address(value: string | null): string | null {
  if (!value) return null;
  const candidate = (/<([^<>]*)>/.exec(value)?.[1] ?? value).trim().toLowerCase();
  return ADDRESS.test(candidate) && domain(candidate.split('@')[1]) ? candidate : null;
}

function domain(value: string | null | undefined): string | null {
  const name = value?.trim().toLowerCase().replace(/\.$/, '');
  return name && DOMAIN.test(name) ? name : null;
}

function messageId(value: string | null): string | null {
  const id = value?.replace(/^<|>$/g, '').trim();
  return id && id.length <= 500 && !/\s/.test(id) ? id : null;
}
